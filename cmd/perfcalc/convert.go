package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/identity"
	"github.com/perfcalc/perfcalc/engine/relog"
	"github.com/perfcalc/perfcalc/engine/termtext"
)

var convertUsage = `Usage:
  perfcalc convert INPUT... -o DIR [-f ` + formatNames(forConvert, formatParquet, "|") + `] [-j N] [--force] [--digits 20|17] [--max-columns N] [--identity pdh|pid]
  perfcalc convert INPUT... -o DIR --partition machine,date [-j N] [--force] [--digits 20|17] [--max-columns N] [--identity pdh|pid]

Converts many perfmon logs at once, in parallel: each INPUT is a .blg file,
a folder (its *.blg files, not its subfolders) or a glob pattern
(logs/*/*.blg, quoted so that perfcalc expands it); a folder's or a
pattern's files that are not regular files (named pipes, devices) are
skipped with a note, and read as streams when given by name. Each log gives
one output in DIR named after it, with the extension of its format:
  ` + convertExtensions() + `
SERVER1.blg becomes DIR/SERVER1.parquet, written through a temporary file:
complete or absent. The formats are relog's (perfcalc relog -h).

A log's outputs belong to its identity, not its file name: the SHA-256 of
its header (the fields Windows rewrites as it writes the log left out) and
the record after it (the counter list: every path, machines included).
Where the name is another log's, or two inputs have it (every data
collector writes DataCollector01.blg), the outputs are NAME~ID, ID the
identity's first 12 hex digits: DataCollector01~3f2a9c1b7e40.parquet. Two
logs of one name never skip, replace or delete each other; a copy of a log
given twice under one name is converted once (of other bytes: it fails). DIR/_perfcalc/NAME.EXT.parts
(NAME.parts with --partition) records the identity and each file written
with its size and time.

A log that cannot be converted (not a .blg log, damaged, unreadable) fails
alone, without an output, and the others go on; the exit status is then 1.
Running the same command again skips every log whose list is its own, not
older than the log, and whose files are still the ones written, so an
interrupted batch resumes where it stopped; --force converts them again.

While standard error is a terminal, a progress line shows the logs done,
the throughput and the time left. At the end, standard output gets one
line per failure and a summary: converted, skipped and failed. A log whose
OpenMetrics text leaves out samples whose time stamp did not increase (see
perfcalc relog -h) gets a note on standard error; it counts as converted.

--max-columns N (default 1000000) fails a log of more than N columns
(counters of distinct instances) as perfcalc relog does, before memory
runs out; -j logs are read at once, each up to that bound. 0 sets no limit.

` + identityHelp + `(convert notes each log's breaks.)

--partition machine,date writes the Hive-partitioned layout that Spark,
DuckDB and Trino read as one dataset (Parquet only):
  DIR/machine=NAME/date=YYYY-MM-DD/SERVER1.parquet
one file per machine of the log's counter paths and UTC date of its
samples (a log that spans midnight UTC is split across two dates). The
values are escaped as Hive escapes them (%XX; an empty machine is
__HIVE_DEFAULT_PARTITION__, which the engines read as null, and a machine
of that name %5F_HIVE_DEFAULT_PARTITION__). The files keep every column,
machine included, so each is also an ordinary perfcalc Parquet file.
DIR/_perfcalc/SERVER1.parts lists a log's files (readers skip folders
whose name begins with _): a run converts again a log whose list is
missing or older than the log, or names a missing or changed file, and
removes the files of its earlier run that it no longer writes: only files
its own list names, inside DIR, through no symbolic link, of the size and
time recorded. Each file is written through a temporary file; the list is
written last.
--partition machine or --partition date partitions by one of them.

` + namesHelp + `
Flags:
`

func init() {
	register(command{"convert", "convert many .blg logs to Parquet, CSV, TSV, JSON or OpenMetrics, in parallel", runConvert})
}

// convertExtensions lists convert's formats with the extension of their
// outputs: "parquet .parquet, csv .csv, …".
func convertExtensions() string {
	var list []string
	for _, f := range commandFormats(forConvert, formatParquet) {
		list = append(list, f.String()+" "+f.ext())
	}
	return strings.Join(list, ", ")
}

// job is one input of a convert run and what became of it.
type job struct {
	in, out string
	size    int64
	err     error // why it failed
	skipped bool
	dropped int64 // OpenMetrics samples left out (droppedNote)
	events  int64 // events its first reading skipped (noteSkipped)
	// identity is --identity; in pid mode, idNotes and idBreaks are the
	// log's identity notes and breaks (noteIdentity).
	identity identity.Mode
	idNotes  []string
	idBreaks int64
	names    *namer // --names-lang's translations of its names
	// id is the log's identity (logIdentity), slot where its outputs go
	// (chooseSlot), sameAs the earlier input of the run with the same
	// identity and name, which this job leaves to it.
	id     string
	slot   slotNames
	sameAs string
	place  func(*job) error // places a job identified when opened (a stream)
}

func runConvert(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("convert", flag.ContinueOnError)
	outDir := fs.String("o", "", "the folder of the outputs (created if absent)")
	format := addFormatFlag(fs, forConvert, formatParquet)
	jobs := fs.Int("j", runtime.NumCPU(), "logs converted at once")
	force := fs.Bool("force", false, "convert inputs whose output is already up to date")
	digits := addDigitsFlag(fs, engine.DefaultDigits)
	maxColumns := addMaxColumnsFlag(fs)
	identity := addIdentityFlag(fs)
	var names namesFlags
	names.register(fs)
	partition := fs.String("partition", "", "write Hive partitions by these columns: machine,date (Parquet only)")
	pos, status, ok := parseCommandArgs(fs, convertUsage, args, stdout, stderr)
	if !ok {
		return status
	}
	if err := names.check(); err != nil {
		return failCommand(stderr, "convert", err)
	}
	srcs, err := names.load(&stdinOnce{r: stdin})
	if err != nil {
		return failCommand(stderr, "convert", err)
	}
	usageErr := func(msg string) int {
		return failCommand(stderr, "convert", &usageError{msg + " (see perfcalc convert -h)"})
	}
	f, ferr := format.format("") // -o is a folder: its name says nothing of the format
	switch {
	case len(pos) == 0:
		return usageErr("give the logs to convert (perfcalc convert INPUT... -o DIR)")
	case *outDir == "":
		return usageErr("-o: give the folder of the outputs")
	case ferr != nil:
		return usageErr(ferr.Error())
	case *jobs < 1:
		return usageErr(fmt.Sprintf("-j: %d is not a positive number of logs", *jobs))
	}
	var keys []string
	if *partition != "" {
		var err error
		if keys, err = parsePartition(*partition); err != nil {
			return usageErr(err.Error())
		}
		if f != formatParquet {
			return usageErr("--partition writes Parquet only, not -f " + f.String())
		}
	}
	if err := os.MkdirAll(*outDir, 0o755); err != nil {
		return failCommand(stderr, "convert", fmt.Errorf("-o: %v", err))
	}
	listDir, ext := *outDir, f.ext()
	if keys != nil {
		// Each log's output is then its list of partitions.
		listDir, ext = filepath.Join(*outDir, partsFolder), ".parts"
	}
	all := expandInputs(pos, listDir, ext, func(name, kind string) {
		fmt.Fprintf(stderr, "perfcalc convert: note: %s is %s, not a regular file: skipped (give it by name to read it as a stream)\n", termtext.Visible(name), kind)
	})
	refuseOutputsThatAreInputs(all, names.inputs()...)
	if err := mkdirInside(*outDir, partsFolder); err != nil {
		return failCommand(stderr, "convert", fmt.Errorf("-o: %v", err))
	}
	cr := &convertRun{outDir: *outDir, listDir: filepath.Join(*outDir, partsFolder), keys: keys, format: f}
	todo := cr.plan(all, *force)
	p := newProgress(stderr, todo)
	work := make(chan *job)
	var wg sync.WaitGroup
	for range min(*jobs, max(len(todo), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range work {
				j.identity = *identity
				j.err = cr.convert(j, int(*digits), *maxColumns, srcs)
				p.done(j)
			}
		}()
	}
	for _, j := range todo {
		work <- j
	}
	close(work)
	wg.Wait()
	p.stop()

	var converted, skipped, failed int
	var bytes int64
	for _, j := range all {
		switch {
		case j.err != nil:
			failed++
			fmt.Fprintf(stdout, "failed: %s: %v\n", termtext.Visible(j.in), termtext.Visible(j.err.Error()))
		case j.skipped:
			skipped++
			if j.sameAs != "" {
				fmt.Fprintf(stderr, "perfcalc convert: note: %s is the same log as %s (the same identity): converted once\n", termtext.Visible(j.in), termtext.Visible(j.sameAs))
			}
		default:
			converted++
			bytes += j.size
			if j.slot.foreign != nil {
				fmt.Fprintf(stderr, "perfcalc convert: note: %s: written as %s, since %v; what is there is kept (remove it if it is this log's, from an older perfcalc)\n", termtext.Visible(j.in), termtext.Visible(j.slot.slot), termtext.Visible(j.slot.foreign.Error()))
			}
			if j.dropped > 0 {
				fmt.Fprintf(stderr, "perfcalc convert: note: %s: %s\n", termtext.Visible(j.in), droppedNote(j.dropped))
			}
			noteSkipped(stderr, "convert", []string{j.in}, j.events)
			noteIdentity(stderr, "convert", j.in, *identity, j.idNotes, j.idBreaks)
			j.names.finish(stderr, "convert: "+j.in, names.report)
		}
	}
	fmt.Fprintf(stdout, "converted %d, skipped %d (up to date), failed %d", converted, skipped, failed)
	if mb := float64(bytes) / 1e6; converted > 0 {
		el := time.Since(p.start)
		fmt.Fprintf(stdout, "; %.1f MB in %v (%.1f MB/s)", mb, el.Round(time.Millisecond), mb/el.Seconds())
	}
	fmt.Fprintln(stdout)
	if failed > 0 {
		return exitError
	}
	return exitOK
}

// expandInputs turns the command line's inputs into jobs: files as given,
// folders to their *.blg files, glob patterns to their matches, each job's
// out its plain output (outDir/NAME+ext). An input that names nothing
// becomes a failed job. Files of folders and
// patterns that are not regular files (a named pipe, a device, a socket,
// also through a symbolic link) are left out, each passed to skip with what
// it is: reading one may never end; given by name, such a file is read as
// a stream.
func expandInputs(args []string, outDir, ext string, skip func(name, kind string)) []*job {
	var jobs []*job
	seenIn := map[string]bool{}
	add := func(in string, err error) {
		j := &job{in: in, err: err}
		if err == nil {
			if abs, e := filepath.Abs(in); e == nil {
				if seenIn[abs] {
					return
				}
				seenIn[abs] = true
			}
			j.out = filepath.Join(outDir, logBase(in)+ext)
		}
		jobs = append(jobs, j)
	}
	for _, arg := range args {
		fi, err := os.Stat(arg)
		switch {
		case err == nil && fi.IsDir():
			entries, err := os.ReadDir(arg)
			if err != nil {
				add(arg, err)
				continue
			}
			n := 0
			for _, e := range entries {
				if !e.IsDir() && strings.EqualFold(filepath.Ext(e.Name()), ".blg") {
					p := filepath.Join(arg, e.Name())
					if kind := irregular(p, e.Type()); kind != "" {
						skip(p, kind)
					} else {
						add(p, nil)
					}
					n++
				}
			}
			if n == 0 {
				add(arg, errors.New("the folder holds no .blg file"))
			}
		case err == nil:
			add(arg, nil)
		case strings.ContainsAny(arg, "*?["):
			matches, gerr := filepath.Glob(arg)
			if gerr != nil {
				add(arg, fmt.Errorf("not a valid pattern: %v", gerr))
				continue
			}
			n := 0
			sort.Strings(matches)
			for _, m := range matches {
				if fi, err := os.Stat(m); err == nil && !fi.IsDir() {
					if kind := irregular(m, fi.Mode()); kind != "" {
						skip(m, kind)
					} else {
						add(m, nil)
					}
					n++
				}
			}
			if n == 0 {
				add(arg, errors.New("the pattern matches no file"))
			}
		default:
			add(arg, err)
		}
	}
	for _, j := range jobs {
		if j.err == nil {
			if fi, err := os.Stat(j.in); err == nil {
				j.size = fi.Size()
			}
		}
	}
	return jobs
}

// irregular returns what the file name of type mode (a symbolic link
// followed) is when it is neither a regular file nor a folder: "a named
// pipe", "a device", "a socket", …; "" otherwise, and when it cannot be
// told (the conversion then names the error).
func irregular(name string, mode os.FileMode) string {
	if mode&os.ModeSymlink != 0 {
		fi, err := os.Stat(name)
		if err != nil {
			return ""
		}
		mode = fi.Mode()
	}
	switch t := mode.Type(); {
	case t == 0 || t&os.ModeDir != 0:
		return ""
	case t&os.ModeNamedPipe != 0:
		return "a named pipe"
	case t&os.ModeCharDevice != 0:
		return "a character device"
	case t&os.ModeDevice != 0:
		return "a block device"
	case t&os.ModeSocket != 0:
		return "a socket"
	}
	return "a special file"
}

// upToDate reports whether out exists as a regular file not older than in.
// Outputs are written atomically, so an existing one is complete.
func upToDate(in, out string) bool {
	fo, err := os.Stat(out)
	if err != nil || !fo.Mode().IsRegular() {
		return false
	}
	fi, err := os.Stat(in)
	return err == nil && !fo.ModTime().Before(fi.ModTime())
}

// convertOne converts one log into its output, atomically. A damaged log
// fails whole: its output is not written, so that a later run tries again.
func convertOne(j *job, format outputFormat, digits, maxColumns int) error {
	return convertNamed(j, format, digits, maxColumns, nil)
}

// open opens the job's log (--identity; with --names-lang's sources srcs,
// nil: none, its names translated with them and its own name table) and
// reads it once for its columns. A job without an identity yet (a stream)
// gets it from the opened log, and its place. An error of the log itself is returned
// without its file's name: the summary names it already.
func (j *job) open(digits, maxColumns int, srcs *nameSources) (c *relog.Converter, closeIn func(), err error) {
	opts := relog.Options{Digits: digits, MaxColumns: maxColumns, Identity: j.identity}
	if srcs != nil {
		nm, err := srcs.namer(logTables([]string{j.in}))
		if err != nil {
			return nil, nil, err
		}
		j.names, opts.Rename = nm, nm.rename
	}
	o, err := openLogSet([]string{j.in}, opts, &stdinOnce{})
	if fe := (*fileError)(nil); errors.As(err, &fe) && fe.name == j.in {
		return nil, nil, fe.err
	}
	if err != nil {
		return nil, nil, err
	}
	j.events = o.skipped
	if j.id == "" && j.place != nil && len(o.inputs) == 1 {
		j.id, err = logIdentity(o.inputs[0].R, o.inputs[0].Size)
		if err == nil {
			err = j.place(j)
		}
		if err != nil {
			o.closeAll()
			return nil, nil, err
		}
	}
	return o.c, o.closeAll, nil
}

// convertNamed is convertOne with --names-lang's sources (nil: none): the
// log's names are translated with them and its own name table. With a
// slot (convert's runs), the output is written as the slot's file and
// recorded in the slot's list.
func convertNamed(j *job, format outputFormat, digits, maxColumns int, srcs *nameSources) error {
	c, closeIn, err := j.open(digits, maxColumns, srcs)
	if err != nil {
		return err
	}
	defer closeIn()
	defer func() { j.idNotes, j.idBreaks = append([]string(nil), c.IdentityNotes()...), c.IdentityBreaks() }()
	if j.slot.list == "" {
		_, err = writeOutput(j.out, nil, false, func(w io.Writer) (err error) {
			j.dropped, err = writeLog(w, c, format)
			return err
		})
		return err
	}
	dir, name := filepath.Dir(j.out), filepath.Base(j.out)
	tmp, err := newTempFile(dir, name)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(tmp, 1<<16)
	if j.dropped, err = writeLog(bw, c, format); err == nil {
		err = bw.Flush()
	}
	if err != nil {
		tmp.discard()
		return err
	}
	if err := tmp.commit(j.out, 0o644); err != nil {
		return err
	}
	f, err := stamp(dir, name)
	if err != nil {
		return err
	}
	return writeList(j.slot.list, &outputList{id: j.id, files: []listedFile{f}})
}

// convertRun is what a convert run's jobs share: the output folder, its
// folder of lists, --partition's keys (nil: one file per log), the format
// and the file names that several inputs have (logBase).
type convertRun struct {
	outDir, listDir string
	keys            []string
	format          outputFormat
	shared          map[string]bool
}

// slotKey is the key by which a run compares its logs' names and slots:
// in lower case, as Windows' and macOS's file systems compare file names
// by default, so that a/DataCollector01.blg and b/datacollector01.BLG,
// which would write one file there, are two logs of one name here too.
func slotKey(name string) string { return strings.ToLower(name) }

// logBase is the name of a log's outputs before its identity is known:
// its file name without the extension (SERVER1.blg: SERVER1).
func logBase(in string) string {
	b := filepath.Base(in)
	return strings.TrimSuffix(b, filepath.Ext(b))
}

// place chooses the job's slot (chooseSlot) and its output's name.
func (r *convertRun) place(j *job) error {
	base := logBase(j.in)
	listExt, plainOut := ".parts", ""
	if r.keys == nil {
		listExt, plainOut = r.format.ext()+".parts", filepath.Join(r.outDir, base+r.format.ext())
	}
	s, err := chooseSlot(base, j.id, r.listDir, listExt, plainOut, r.shared[slotKey(base)])
	if err != nil {
		return err
	}
	j.slot = s
	if r.keys == nil {
		j.out = filepath.Join(r.outDir, s.slot+r.format.ext())
	}
	return nil
}

// plan identifies the jobs' logs, chooses their slots and returns the jobs
// to convert: not those up to date (without force: their slot's list is
// theirs, not older than the log, its files still the ones written), nor
// a second input of the same identity and name (the same log, twice). A
// file that is not a log is left to its conversion, which says why; a
// stream is identified when it is opened.
func (r *convertRun) plan(all []*job, force bool) []*job {
	count := map[string]int{}
	for _, j := range all {
		if j.err == nil {
			count[slotKey(logBase(j.in))]++
		}
	}
	r.shared = map[string]bool{}
	for b, n := range count {
		r.shared[b] = n > 1
	}
	bySlot := map[string]*job{}
	var todo []*job
	for _, j := range all {
		if j.err != nil {
			continue
		}
		if id, ok, err := fileIdentity(j.in); ok && err == nil {
			j.id = id
			if j.err = r.place(j); j.err != nil {
				continue
			}
			if first := bySlot[slotKey(j.slot.slot)]; first != nil {
				// One identity, two files: the same log only where the
				// bytes are the same; else two states of one log (a
				// copy taken while it grew, a circular log's), of
				// which converting one would leave the other out.
				if same, err := sameContent(first.in, j.in); err != nil || !same {
					j.err = fmt.Errorf("it has the identity of %s (the same log header and counter list) but other content: two copies of one log taken at different times; convert the one you want, or each into a folder of its own", first.in)
					if err != nil {
						j.err = fmt.Errorf("comparing it with %s, which has its identity: %v", first.in, err)
					}
					continue
				}
				j.skipped, j.sameAs = true, first.in
				continue
			}
			bySlot[slotKey(j.slot.slot)] = j
			if !force && listUpToDate(j.in, j.slot.list, j.id, r.outDir) {
				j.skipped = true
				continue
			}
		}
		todo = append(todo, j)
	}
	return todo
}

// convert converts one job's log into its slot.
func (r *convertRun) convert(j *job, digits, maxColumns int, srcs *nameSources) error {
	if j.id == "" {
		j.place = r.place // a stream: identified and placed once open
	}
	if r.keys != nil {
		return convertPartitioned(j, r.outDir, r.keys, digits, maxColumns, srcs)
	}
	return convertNamed(j, r.format, digits, maxColumns, srcs)
}

// progress draws the progress line on a terminal.
type progress struct {
	w          io.Writer // nil when standard error is not a terminal
	start      time.Time
	total      int
	totalBytes int64

	mu        sync.Mutex
	n         int
	bytesDone int64
	quit      chan struct{}
	ended     chan struct{}
}

func newProgress(stderr io.Writer, todo []*job) *progress {
	p := &progress{start: time.Now(), total: len(todo), quit: make(chan struct{}), ended: make(chan struct{})}
	for _, j := range todo {
		p.totalBytes += j.size
	}
	if f, ok := stderr.(*os.File); ok && isTerminal(f) && len(todo) > 0 {
		p.w = stderr
		go p.loop()
	} else {
		close(p.ended)
	}
	return p
}

func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

func (p *progress) done(j *job) {
	p.mu.Lock()
	p.n++
	p.bytesDone += j.size
	p.mu.Unlock()
	if p.w != nil && j.err != nil {
		p.mu.Lock()
		fmt.Fprintf(p.w, "\r\x1b[Kperfcalc convert: %s: %v\n", termtext.Visible(j.in), termtext.Visible(j.err.Error()))
		p.mu.Unlock()
	}
}

func (p *progress) loop() {
	defer close(p.ended)
	t := time.NewTicker(250 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-p.quit:
			fmt.Fprint(p.w, "\r\x1b[K")
			return
		case <-t.C:
		}
		p.mu.Lock()
		el := time.Since(p.start).Seconds()
		rate := float64(p.bytesDone) / el
		line := fmt.Sprintf("\r\x1b[Kconverting: %d/%d logs, %.1f MB/s", p.n, p.total, rate/1e6)
		if rate > 0 {
			left := time.Duration(float64(p.totalBytes-p.bytesDone) / rate * float64(time.Second))
			line += ", " + left.Round(time.Second).String() + " left"
		}
		fmt.Fprint(p.w, line)
		p.mu.Unlock()
	}
}

func (p *progress) stop() {
	close(p.quit)
	<-p.ended
}
