package identity

import (
	"testing"

	"github.com/perfcalc/perfcalc/tools/importban"
)

func TestAppendName(t *testing.T) {
	for _, tc := range []struct {
		k            Kind
		parent, name string
		pid, aux     uint64
		want         string
	}{
		{Process, "", "chrome", 4242, 7, "chrome:4242"},
		{Process, "", "_Total", 0, 0, "_Total"},
		{Thread, "chrome", "3", 4242, 5120, "chrome:4242/5120"},
		{Thread, "Idle", "0", 0, 0, "Idle:0/0"},
		{Thread, "", "0", 8, 9, ":8/9"},
		{Thread, "_Total", "_Total", 0, 0, "_Total/_Total"},
		{None, "a", "b", 1, 2, "a/b"},
	} {
		if got := string(AppendName([]byte("x"), tc.k, tc.parent, tc.name, tc.pid, tc.aux)); got != "x"+tc.want {
			t.Errorf("AppendName(%v, %q, %q, %d, %d) = %q, want x%q", tc.k, tc.parent, tc.name, tc.pid, tc.aux, got, tc.want)
		}
	}
}

func TestDups(t *testing.T) {
	var d Dups
	for i, tc := range []struct {
		name string
		want int
	}{
		{"Idle:0/0", 0}, {"Idle:0/0", 1}, {"IDLE:0/0", 2}, {"app:100/1000", 0}, {"Straße:1", 0}, {"STRASSE:1", 0}, {"straße:1", 1},
	} {
		if got := d.Next([]byte(tc.name)); got != tc.want {
			t.Errorf("%d: Next(%q) = %d, want %d", i, tc.name, got, tc.want)
		}
	}
	d.Reset()
	if got := d.Next([]byte("Idle:0/0")); got != 0 {
		t.Errorf("after Reset: %d, want 0", got)
	}
	if got := d.Next([]byte("idle:0/0")); got != 1 {
		t.Errorf("after Reset, the second: %d, want 1", got)
	}
	name := []byte("Idle:0/0")
	if n := testing.AllocsPerRun(100, func() { d.Reset(); d.Next(name); d.Next(name) }); n != 0 {
		t.Errorf("%v allocations per sample of names met before, want 0", n)
	}
}

func TestRoleOf(t *testing.T) {
	for _, tc := range []struct {
		k       Kind
		counter string
		want    Role
	}{
		{Process, "id process", RolePID}, {Process, "Creating Process ID", RoleAux}, {Process, "ID Thread", RoleNone},
		{Thread, "ID Thread", RoleAux}, {Thread, "ID Process", RolePID}, {None, "ID Process", RoleNone},
	} {
		if got := RoleOf(tc.k, tc.counter); got != tc.want {
			t.Errorf("RoleOf(%v, %q) = %v, want %v", tc.k, tc.counter, got, tc.want)
		}
	}
}

// TestImports: the package is linked into the WebAssembly module.
func TestImports(t *testing.T) { importban.Check(t, "github.com/perfcalc/perfcalc/engine") }
