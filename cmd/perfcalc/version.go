package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

const versionUsage = `Usage:
  perfcalc version [--json]
  perfcalc --version

Prints perfcalc's version, the commit it was built from, and the Go version
and platform of the build:

  perfcalc v0.0.0-20261124092326-c88f3f6db3ed+dirty (commit c88f3f6db3ed, 2026-11-24T09:23:26Z, modified, go1.26.8, linux/amd64)

The version is the module's as Go records it in the binary: a release tag
(go install github.com/perfcalc/perfcalc/cmd/perfcalc@v1.2.3), a
pseudo-version for a build from a git checkout, "(devel)" where Go recorded
none (go run, or a build with -buildvcs=false); -ldflags "-X main.version=V"
sets it. The commit, its time and "modified" (uncommitted changes) appear
when Go recorded them. Parquet files name the same version in created_by.

Flags:
`

func init() {
	register(command{"version", "print perfcalc's version, commit and Go version (also perfcalc --version)", runVersion})
}

// version, when set at link time (-ldflags "-X main.version=v1.2.3"),
// overrides the module version that Go records in the binary.
var version string

// versionInfo is what perfcalc version prints.
type versionInfo struct {
	Version    string `json:"version"`               // module version, or "(devel)"
	Commit     string `json:"commit,omitempty"`      // full VCS revision, when recorded
	CommitTime string `json:"commit_time,omitempty"` // the commit's time (RFC 3339), when recorded
	Modified   bool   `json:"modified,omitempty"`    // the checkout had uncommitted changes
	Go         string `json:"go"`                    // the Go version that built the binary
	OS         string `json:"os"`
	Arch       string `json:"arch"`
}

// currentVersion is this binary's versionInfo: the single source of the
// version for perfcalc version and for Parquet's created_by.
func currentVersion() versionInfo {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		bi = nil
	}
	return buildVersion(bi, version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

// buildVersion derives the version from the build information (nil when
// the binary has none) and the link-time override (empty when not set).
func buildVersion(bi *debug.BuildInfo, override, goVersion, goos, goarch string) versionInfo {
	v := versionInfo{Version: "(devel)", Go: goVersion, OS: goos, Arch: goarch}
	if bi != nil {
		if bi.Main.Version != "" {
			v.Version = bi.Main.Version
		}
		if bi.GoVersion != "" {
			v.Go = bi.GoVersion
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				v.Commit = s.Value
			case "vcs.time":
				v.CommitTime = s.Value
			case "vcs.modified":
				v.Modified = s.Value == "true"
			}
		}
	}
	if override != "" {
		v.Version = override
	}
	return v
}

// String is the line perfcalc version prints, without its newline.
func (v versionInfo) String() string {
	s := "perfcalc " + v.Version + " ("
	if v.Commit != "" {
		c := v.Commit
		if len(c) > 12 {
			c = c[:12] // as Go's pseudo-versions abbreviate it
		}
		s += "commit " + c + ", "
		if v.CommitTime != "" {
			s += v.CommitTime + ", "
		}
		if v.Modified {
			s += "modified, "
		}
	}
	return s + v.Go + ", " + v.OS + "/" + v.Arch + ")"
}

func runVersion(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print a JSON object: version, commit, commit_time, modified, go, os, arch")
	pos, status, ok := parseCommandArgs(fs, versionUsage, args, stdout, stderr)
	if !ok {
		return status
	}
	if len(pos) > 0 {
		fmt.Fprintf(stderr, "perfcalc version: unexpected argument %q (see perfcalc version -h)\n", pos[0])
		return exitUsage
	}
	v := currentVersion()
	if *asJSON {
		b, err := json.Marshal(v)
		if err != nil { // a struct of strings and a bool: cannot fail
			fmt.Fprintf(stderr, "perfcalc version: %v\n", err)
			return exitError
		}
		stdout.Write(append(b, '\n'))
		return exitOK
	}
	fmt.Fprintln(stdout, v)
	return exitOK
}
