package blg

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestWriterStream: a log written to an *os.File that cannot seek (a pipe:
// relog -f bin -o - | ...) ends without error, its EndTime and
// BuffersWritten left 0 as in a real-time log, every other byte that of
// the log written to a file; Close used to fail with "illegal seek" after
// the whole log was written (issue 32, item 17). A log written to a file
// that already holds other bytes (standard output after an echo) gets its
// header set at the log's own offset, the bytes before it untouched (they
// used to be overwritten).
func TestWriterStream(t *testing.T) {
	cfg, samples := testConfig(), testSamples(40)
	var file fileBuffer
	if err := writeSamples(t, &file, cfg, samples); err != nil {
		t.Fatal(err)
	}
	const endTime, buffersWritten = BufferHeaderSize + systemHeaderSize + 16, BufferHeaderSize + systemHeaderSize + 36
	if le.Uint64(file.b[endTime:]) == 0 || le.Uint32(file.b[buffersWritten:]) == 0 {
		t.Fatal("the log written to a file has no EndTime or BuffersWritten")
	}
	stream := bytes.Clone(file.b)
	clear(stream[endTime : endTime+8])
	clear(stream[buffersWritten : buffersWritten+4])

	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	read := make(chan []byte)
	go func() {
		b, _ := io.ReadAll(pr)
		read <- b
	}()
	err = writeSamples(t, pw, cfg, samples)
	pw.Close()
	if have := <-read; err != nil || !bytes.Equal(have, stream) {
		t.Errorf("to a pipe: %v, %d bytes; want no error and the file's %d bytes but EndTime and BuffersWritten 0", err, len(have), len(stream))
	}
	r, err := NewReader(bytes.NewReader(stream), int64(len(stream)))
	if err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, r); len(got) != len(samples) {
		t.Errorf("the streamed log reads %d samples, want %d", len(got), len(samples))
	}

	prefix := []byte("bytes before the log\n")
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(prefix); err != nil {
		t.Fatal(err)
	}
	if err := writeSamples(t, f, cfg, samples); err != nil {
		t.Fatal(err)
	}
	have, err := os.ReadFile(f.Name())
	if err != nil {
		t.Fatal(err)
	}
	if want := append(bytes.Clone(prefix), file.b...); !bytes.Equal(have, want) {
		t.Errorf("after %d bytes: the file differs from the bytes and the log (%d bytes, want %d)", len(prefix), len(have), len(want))
	}
}
