package fuzz

import (
	"bytes"
	"errors"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/perfcalc/perfcalc/engine/relog"
	"github.com/perfcalc/perfcalc/internal/longform"
	"github.com/perfcalc/perfcalc/internal/openmetrics"
	"github.com/perfcalc/perfcalc/internal/parquetlog"
)

// FuzzLongFormats: any input that relog opens converts to Parquet and to
// OpenMetrics without a panic; the Parquet file opens with parquet-go's
// reader and holds the rows Write counted, even when the log is damaged
// (the rows before the damage); the OpenMetrics text ends with "# EOF",
// holds no NaN, and has a line per sample written. Small row groups and a
// tiny memory budget exercise the row-group and spill paths. Seeds: those
// of FuzzBLG.
func FuzzLongFormats(f *testing.F) {
	for _, s := range blgHandMadeSeeds() {
		f.Add(s)
	}
	for _, s := range blgCorpusSeeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		open := func() *relog.Converter {
			c, err := relog.New(bytes.NewReader(data), int64(len(data)), relog.Options{})
			if err != nil {
				return nil
			}
			return c
		}
		c := open()
		if c == nil {
			return
		}
		var pq bytes.Buffer
		st, err := parquetlog.Write(&pq, longform.FromConverter(c), parquetlog.Options{RowGroupRows: 7})
		if err != nil && !errors.Is(err, c.Err()) {
			t.Fatalf("parquet: %v (the log's error: %v)", err, c.Err())
		}
		f, err := parquet.OpenFile(bytes.NewReader(pq.Bytes()), int64(pq.Len()))
		if err != nil {
			t.Fatalf("parquet-go cannot open the file: %v", err)
		}
		if f.NumRows() != st.Rows {
			t.Fatalf("the file has %d rows, Write counted %d", f.NumRows(), st.Rows)
		}
		c = open()
		var om bytes.Buffer
		ost, err := openmetrics.Write(&om, longform.FromConverter(c), openmetrics.Options{Budget: 64, TempDir: t.TempDir()})
		if err != nil && !errors.Is(err, c.Err()) {
			t.Fatalf("openmetrics: %v (the log's error: %v)", err, c.Err())
		}
		text := om.Bytes()
		if !bytes.HasSuffix(text, []byte("# EOF\n")) || bytes.Contains(text, []byte("NaN")) {
			t.Fatalf("the text does not end in # EOF, or holds NaN:\n%.300s", text)
		}
		lines := int64(0)
		for _, line := range bytes.Split(text, []byte("\n")) {
			if len(line) > 0 && line[0] != '#' {
				lines++
			}
		}
		if lines != ost.Samples {
			t.Fatalf("%d sample lines, Write counted %d", lines, ost.Samples)
		}
	})
}
