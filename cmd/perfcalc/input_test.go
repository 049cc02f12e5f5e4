package main

import (
	"bytes"
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// endlessReader yields fill's bytes over and over, and fails after limit
// bytes (a test's guard: the input has been read too far).
type endlessReader struct {
	fill  []byte
	n     int64
	limit int64
}

var errReadTooFar = errors.New("read too far")

func (r *endlessReader) Read(p []byte) (int, error) {
	if r.n >= r.limit {
		return 0, errReadTooFar
	}
	p = p[:min(int64(len(p)), r.limit-r.n)]
	for i := range p {
		p[i] = r.fill[(r.n+int64(i))%int64(len(r.fill))]
	}
	r.n += int64(len(p))
	return len(p), nil
}

// TestStreamCheckedFirst: bytes that are not a log, from standard input or
// a pipe, are refused from their first buffer with the error a file of the
// same bytes gets; they used to be copied to a temporary file first, up to
// 64 GiB (cat /dev/zero | perfcalc relog - wrote 2.7 GB in 3 s). A stream
// that ends inside its first buffer, and a real log, read as before.
func TestStreamCheckedFirst(t *testing.T) {
	dir := t.TempDir()
	csvText := []byte("\"(PDH-CSV 4.0) (Pacific Standard Time)(480)\",\"\\\\HOST\\Memory\\Pages/sec\"\r\n")
	for _, tc := range []struct {
		name string
		fill []byte
	}{
		{"zeros", []byte{0}},
		{"CSV text", csvText},
		{"a buffer header, then zeros", append(tinyLog(1)[:0x48:0x48], make([]byte, 4096)...)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The same bytes as a file: 2 MiB of them.
			file := putFile(t, filepath.Join(dir, "bytes.blg"), bytes.Repeat(tc.fill, 2<<20/len(tc.fill)))
			for _, cmd := range []string{"relog", "stats"} {
				_, _, want := runCmd(t, "", cmd, file)
				want = strings.Replace(want, file+": ", "-: ", 1)
				if !strings.Contains(want, ": not a readable .blg log: blg: ") {
					t.Fatalf("%s of the file: %q", cmd, want)
				}
				src := &endlessReader{fill: tc.fill, limit: 16 << 20}
				var stdout, stderr bytes.Buffer
				code := run([]string{cmd, "-"}, src, &stdout, &stderr)
				if code != exitError || stderr.String() != want || src.n > 1<<20 {
					t.Errorf("%s -: exit %d after %d bytes read, %q\nwant exit 1 within 1 MiB, %q", cmd, code, src.n, stderr.String(), want)
				}
			}
		})
	}
	// A stream that ends inside its first buffer: the reader's error.
	short := tinyLog(1)[:0x46]
	_, _, want := runCmd(t, "", "relog", putFile(t, filepath.Join(dir, "short.blg"), short))
	want = strings.Replace(want, filepath.Join(dir, "short.blg"), "-", 1)
	if code, _, errs := runCmd(t, string(short), "relog", "-"); code != exitError || errs != want {
		t.Errorf("a short stream: exit %d, %q, want %q", code, errs, want)
	}
	// A log whose first buffer is followed by more: read whole.
	log := tinyLog(3000, "a", "b", "c", "d")
	if len(log) <= 64<<10 {
		t.Fatalf("the log has %d bytes: one buffer", len(log))
	}
	fileCode, fileOut, _ := runCmd(t, "", "relog", putFile(t, filepath.Join(dir, "log.blg"), log))
	if code, out, errs := runCmd(t, string(log), "relog", "-"); code != exitOK || fileCode != exitOK || out != fileOut || errs != "" {
		t.Errorf("a log of %d bytes: exit %d, %d bytes (%q), want the file's %d bytes", len(log), code, len(out), errs, len(fileOut))
	}
}
