package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/tools/corpus"
)

// The docs' transcripts ("$ perfcalc ..." in a ```sh block, then what it
// prints) are what the command prints today, figure for figure (issue 32:
// COMMANDS.md §8 quoted alert counts of the PAL sample log that the
// analyses no longer raised).

// transcriptDocs are the documents whose transcripts are run.
var transcriptDocs = []string{"README.md", "doc/COMMANDS.md"}

// notRun are the transcripts that are not run, by the start of their
// command, and why.
var notRun = map[string]string{
	"perfcalc convert ": "a folder of logs the reader assembles, and the time the conversion took",
	"perfcalc watch ":   "live counters, on Windows",
}

// transcript is a command a document shows, with what it prints.
type transcript struct {
	where string // document:line
	cmd   string // the command, its continuation lines joined
	want  string // the lines after it, up to the next command or the block's end
}

// transcripts returns the transcripts of a Markdown document.
func transcripts(name, text string) []transcript {
	var ts []transcript
	lines := strings.Split(text, "\n")
	inSh := false
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		switch {
		case strings.HasPrefix(line, "```"):
			inSh = !inSh && strings.TrimPrefix(line, "```") == "sh"
			continue
		case !inSh || !strings.HasPrefix(line, "$ perfcalc "):
			continue
		}
		t := transcript{where: name + ":" + strconv.Itoa(i+1), cmd: strings.TrimPrefix(line, "$ ")}
		for strings.HasSuffix(t.cmd, `\`) && i+1 < len(lines) {
			i++
			t.cmd = strings.TrimSuffix(t.cmd, `\`) + " " + strings.TrimSpace(lines[i])
		}
		var out []string
		for i+1 < len(lines) && !strings.HasPrefix(lines[i+1], "$ ") && !strings.HasPrefix(lines[i+1], "```") {
			i++
			out = append(out, lines[i])
		}
		if len(out) > 0 {
			t.want = strings.Join(out, "\n") + "\n"
		}
		ts = append(ts, t)
	}
	return ts
}

// shellWords splits a command line as sh does, for the quoting the docs
// use: single quotes, and double quotes without expansions.
func shellWords(s string) []string {
	var words []string
	var w strings.Builder
	in, quote := false, byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			w.WriteByte(c)
		case c == '\'' || c == '"':
			quote, in = c, true
		case c == ' ':
			if in {
				words = append(words, w.String())
				w.Reset()
				in = false
			}
		default:
			w.WriteByte(c)
			in = true
		}
	}
	if in {
		words = append(words, w.String())
	}
	return words
}

// synopsisWord is a placeholder of a synopsis (IN.blg, OLDER, INPUT...).
var synopsisWord = regexp.MustCompile(`^[A-Z][A-Z0-9]*(\.blg|\.\.\.)?$|^\[`)

// inputFile is a word naming a file the command reads.
var inputFile = regexp.MustCompile(`\.(blg|bin|multisz|xml|csv|tsv)$`)

// TestDocTranscripts runs every transcript of transcriptDocs whose inputs
// are the shared corpus' logs (where it is present) or testdata/'s
// captures, and compares what it prints (the lines a "| head -N" or
// "| tail -N" keeps; the exit status for "; echo $?"; CRLF read as LF) with
// what the document shows.
func TestDocTranscripts(t *testing.T) {
	root := corpus.Root()
	// corpus.Shared's folder, without its skip: testdata/'s transcripts
	// (values twice, paths) run without it.
	logs := filepath.Join(filepath.Dir(root), "shared", "corpus", "blg")
	minRan := 3
	if _, err := os.Stat(logs); err == nil {
		minRan = 8
	}
	ran := 0
	for _, doc := range transcriptDocs {
		text, err := os.ReadFile(filepath.Join(root, doc))
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range transcripts(doc, string(text)) {
			if skip(tc.cmd) {
				t.Logf("%s: not run: %s", tc.where, tc.cmd)
				continue
			}
			cmd, echoStatus := strings.CutSuffix(tc.cmd, "; echo $?")
			keep := 0 // lines kept: > 0 the first, < 0 the last
			if c, n, ok := strings.Cut(cmd, " | head -"); ok {
				cmd, keep = c, atoi(t, n)
			} else if c, n, ok := strings.Cut(cmd, " | tail -"); ok {
				cmd, keep = c, -atoi(t, n)
			}
			words := shellWords(cmd)[1:]
			missing := ""
			for i, w := range words {
				switch {
				case synopsisWord.MatchString(w):
					missing = w
				case i > 0 && words[i-1] == "-o":
					words[i] = filepath.Join(t.TempDir(), w)
				case strings.HasPrefix(w, "testdata/"):
					words[i] = filepath.Join(root, w)
				case inputFile.MatchString(w) && !strings.Contains(w, "/"):
					words[i] = filepath.Join(logs, w)
					if _, err := os.Stat(words[i]); err != nil {
						missing = w
					}
				}
			}
			if missing != "" {
				t.Logf("%s: not run: %s is a synopsis' placeholder or the reader's own file", tc.where, missing)
				continue
			}
			ran++
			t.Logf("%s: %s", tc.where, tc.cmd)
			code, out, errs := runCmd(t, "", words...)
			out = strings.ReplaceAll(out, "\r\n", "\n") // relog's CSV ends its lines as Windows does
			if echoStatus {
				out = strconv.Itoa(code) + "\n"
			} else if code != exitOK {
				t.Errorf("%s: %s: exit %d, %q", tc.where, tc.cmd, code, errs)
				continue
			}
			if keep != 0 {
				lines := strings.SplitAfter(out, "\n")
				lines = lines[:len(lines)-1] // after the last newline
				if keep > 0 && keep < len(lines) {
					lines = lines[:keep]
				} else if keep < 0 && -keep < len(lines) {
					lines = lines[len(lines)+keep:]
				}
				out = strings.Join(lines, "")
			}
			if out != tc.want {
				t.Errorf("%s: %s\nthe document shows\n%s\nthe command prints\n%s", tc.where, tc.cmd, tc.want, out)
			}
		}
	}
	if ran < minRan {
		t.Errorf("ran %d transcripts; want at least %d", ran, minRan)
	}
}

// skip reports whether a transcript is one of notRun's.
func skip(cmd string) bool {
	for prefix := range notRun {
		if strings.HasPrefix(cmd, prefix) {
			return true
		}
	}
	return false
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("%q: not a number of lines", s)
	}
	return n
}

// TestDefaultAnalysesFigures: the figures doc/DEFAULT-ANALYSES.md §2 states
// of each log of the corpus ("N of the M analyses run", "C critical and W
// warning alerts", "no alert") are what perfcalc analyze finds in it (issue 32: they were 37, 9 and 56 after the analyses had
// changed to 36, 8 and 46).
func TestDefaultAnalysesFigures(t *testing.T) {
	logs := corpus.Shared(t, "blg")
	text, err := os.ReadFile(filepath.Join(corpus.Root(), "doc", "DEFAULT-ANALYSES.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, sec, _ := strings.Cut(string(text), "\n## 2. On the logs of the corpus\n")
	sec, _, _ = strings.Cut(sec, "\n## ")
	bullet := regexp.MustCompile("(?m)^- `([^`]+\\.blg)` ((?:.|\n  )*)")
	ranRe := regexp.MustCompile(`(\d+) of\s+the (\d+) analyses run`)
	alertsRe := regexp.MustCompile(`(\d+) critical and (\d+) warning alerts`)
	bullets := bullet.FindAllStringSubmatch(sec, -1)
	if len(bullets) < 3 {
		t.Fatalf("§2 states the figures of %d logs; want the 3 of the corpus", len(bullets))
	}
	for _, b := range bullets {
		name, says := b[1], b[2]
		code, out, errs := runCmd(t, "", "analyze", filepath.Join(logs, name), "-f", "json")
		if code != exitOK {
			t.Fatalf("%s: exit %d, %q", name, code, errs)
		}
		type report struct {
			Alerts []struct {
				Condition string `json:"condition"`
			} `json:"alerts"`
			Analyses []struct {
				Skipped string `json:"skipped"`
			} `json:"analyses"`
		}
		var fleet struct {
			report
			Machines []report `json:"machines"`
		}
		if err := json.Unmarshal([]byte(out), &fleet); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		reports := fleet.Machines
		if reports == nil {
			reports = []report{fleet.report}
		}
		ran, all, crit, warn := 0, 0, 0, 0
		for _, r := range reports {
			for _, a := range r.Analyses {
				all++
				if a.Skipped == "" {
					ran++
				}
			}
			for _, a := range r.Alerts {
				switch a.Condition {
				case "Critical":
					crit++
				case "Warning":
					warn++
				}
			}
		}
		checked := 0
		if m := ranRe.FindStringSubmatch(says); m != nil {
			checked++
			if m[1] != strconv.Itoa(ran) || m[2] != strconv.Itoa(all) {
				t.Errorf("%s: the doc says %s of the %s analyses run; %d of the %d run", name, m[1], m[2], ran, all)
			}
		}
		if m := alertsRe.FindStringSubmatch(says); m != nil {
			checked++
			if m[1] != strconv.Itoa(crit) || m[2] != strconv.Itoa(warn) {
				t.Errorf("%s: the doc says %s critical and %s warning alerts; analyze raises %d and %d", name, m[1], m[2], crit, warn)
			}
		} else if strings.Contains(says, "no alert") {
			checked++
			if crit+warn != 0 {
				t.Errorf("%s: the doc says no alert; analyze raises %d critical and %d warning alerts", name, crit, warn)
			}
		}
		if checked == 0 {
			t.Errorf("%s: §2 states no figure this test knows (alerts, analyses run): %q", name, says)
		}
	}
}
