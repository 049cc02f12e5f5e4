package main

import (
	"io"

	"github.com/perfcalc/perfcalc/engine/relog"
	"github.com/perfcalc/perfcalc/internal/longform"
	"github.com/perfcalc/perfcalc/internal/openmetrics"
	"github.com/perfcalc/perfcalc/internal/parquetlog"
)

// The output formats of relog and convert beyond relog's own (csv, tsv,
// json): the long table as Parquet, and OpenMetrics text for Prometheus.
const (
	formatParquet     = "parquet"
	formatOpenMetrics = "openmetrics"
)

// logFormats names every format relog and convert write, for messages.
const logFormats = "csv, tsv, json, parquet or openmetrics"

// version is written into Parquet files' created_by.
var version = "(devel)"

// checkLogFormat reports whether name is a format relog and convert write.
func checkLogFormat(name string) bool {
	switch name {
	case formatParquet, formatOpenMetrics:
		return true
	}
	_, err := relog.ParseFormat(name)
	return err == nil
}

// writeLog writes the rows of c to w in the named format (checkLogFormat
// accepted it). Like relog.Converter.Write, it returns the first error of
// w, or else the converter's Err once the rows before a damage are
// written.
func writeLog(w io.Writer, c *relog.Converter, format string) error {
	switch format {
	case formatParquet:
		_, err := parquetlog.Write(w, longform.FromConverter(c), parquetlog.Options{Version: version})
		return err
	case formatOpenMetrics:
		_, err := openmetrics.Write(w, longform.FromConverter(c), openmetrics.Options{})
		return err
	}
	f, err := relog.ParseFormat(format)
	if err != nil {
		return err
	}
	return c.Write(w, f)
}
