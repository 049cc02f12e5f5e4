package main

import (
	"encoding/json"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

// TestBuildVersion: the version line from the build information Go
// records, with and without VCS settings, and the link-time override.
func TestBuildVersion(t *testing.T) {
	vcs := &debug.BuildInfo{
		GoVersion: "go1.26.8",
		Main:      debug.Module{Path: "github.com/perfcalc/perfcalc", Version: "v0.0.0-20261124092326-c88f3f6db3ed+dirty"},
		Settings: []debug.BuildSetting{
			{Key: "-buildmode", Value: "exe"},
			{Key: "vcs", Value: "git"},
			{Key: "vcs.revision", Value: "c88f3f6db3ed9a6f5f80fe379b5f82885e9f7a4d"},
			{Key: "vcs.time", Value: "2026-11-24T09:23:26Z"},
			{Key: "vcs.modified", Value: "true"},
		},
	}
	clean := &debug.BuildInfo{
		GoVersion: "go1.26.8",
		Main:      debug.Module{Path: "github.com/perfcalc/perfcalc", Version: "v1.2.3"},
		Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
			{Key: "vcs.modified", Value: "false"},
		},
	}
	for _, tc := range []struct {
		name     string
		bi       *debug.BuildInfo
		override string
		want     string
	}{
		{"pseudo-version from a checkout", vcs, "", "perfcalc v0.0.0-20261124092326-c88f3f6db3ed+dirty (commit c88f3f6db3ed, 2026-11-24T09:23:26Z, modified, go1.26.8, linux/amd64)"},
		{"release, clean, no time", clean, "", "perfcalc v1.2.3 (commit 0123456789ab, go1.26.8, linux/amd64)"},
		{"go run: (devel), no VCS", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "", "perfcalc (devel) (go1.99, linux/amd64)"},
		{"test binary: empty version", &debug.BuildInfo{}, "", "perfcalc (devel) (go1.99, linux/amd64)"},
		{"no build information", nil, "", "perfcalc (devel) (go1.99, linux/amd64)"},
		{"-X main.version", vcs, "v2.0.0", "perfcalc v2.0.0 (commit c88f3f6db3ed, 2026-11-24T09:23:26Z, modified, go1.26.8, linux/amd64)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if have := buildVersion(tc.bi, tc.override, "go1.99", "linux", "amd64").String(); have != tc.want {
				t.Errorf("have %q\nwant %q", have, tc.want)
			}
		})
	}
}

// TestVersionCommand: perfcalc version, --version and -version print the
// same one line, this binary's, on standard output; --json the same facts.
func TestVersionCommand(t *testing.T) {
	want := currentVersion().String() + "\n"
	if !strings.HasPrefix(want, "perfcalc ") || !strings.HasSuffix(want, runtime.GOOS+"/"+runtime.GOARCH+")\n") || !strings.Contains(want, runtime.Version()) {
		t.Fatalf("version line %q lacks the name, the Go version or the platform", want)
	}
	for _, args := range [][]string{{"version"}, {"--version"}, {"-version"}} {
		code, out, errs := runCmd(t, "", args...)
		if code != exitOK || out != want || errs != "" {
			t.Errorf("%q: have exit %d, stdout %q, stderr %q; want exit 0, stdout %q", args, code, out, errs, want)
		}
	}
	code, out, errs := runCmd(t, "", "version", "--json")
	var v versionInfo
	if err := json.Unmarshal([]byte(out), &v); code != exitOK || errs != "" || err != nil || v != currentVersion() || !strings.HasSuffix(out, "}\n") {
		t.Errorf("version --json: have exit %d, stdout %q (%v), stderr %q; want %+v", code, out, err, errs, currentVersion())
	}
	code, out, errs = runCmd(t, "", "version", "extra")
	if code != exitUsage || out != "" || errs != "perfcalc version: unexpected argument \"extra\" (see perfcalc version -h)\n" {
		t.Errorf("version extra: have exit %d, stdout %q, stderr %q; want exit 2 and one line", code, out, errs)
	}
}

// TestHelpListsVersion: perfcalc help lists the version command.
func TestHelpListsVersion(t *testing.T) {
	_, out, _ := runCmd(t, "", "help")
	if !strings.Contains(out, "\n  version  print perfcalc's version") {
		t.Errorf("perfcalc help does not list version:\n%s", out)
	}
}

// TestParquetCreatedByVersion: Parquet's created_by names the version that
// perfcalc version prints (one source of truth).
func TestParquetCreatedByVersion(t *testing.T) {
	defer func(v string) { version = v }(version)
	version = "v9.8.7-test"
	code, out, errs := runCmd(t, "", "values", corpusFile("global-1.bin"), corpusFile("global-2.bin"),
		"--names", corpusFile("counter-009.multisz"), "-c", `\Processor(*)\% Processor Time`, "-f", "parquet")
	if code != exitOK || errs != "" {
		t.Fatalf("values -f parquet: exit %d, stderr %q", code, errs)
	}
	if want := "perfcalc version v9.8.7-test"; !strings.Contains(out, want) {
		t.Errorf("the Parquet file does not name %q in created_by", want)
	}
	if have, want := currentVersion().Version, "v9.8.7-test"; have != want {
		t.Errorf("currentVersion().Version: have %q, want %q", have, want)
	}
}
