package analysis

import (
	"errors"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine/relog"
)

// TestMachineGroups: logs grouped by machine in the order of their
// machines' first logs, each group in the order of the logs; a log whose
// machine cannot be read in failed; one log is not opened; more than
// relog.MaxInputs logs of one machine is a *GroupsError naming the first.
func TestMachineGroups(t *testing.T) {
	machines := []string{"b", "a", "", "b", "x", "a"}
	bad := errors.New("log 5: not a log")
	groups, failed, err := MachineGroups(len(machines), func(i int) (string, error) {
		if machines[i] == "x" {
			return "", bad
		}
		return machines[i], nil
	})
	if err != nil || len(failed) != 1 || failed[0] != bad {
		t.Fatalf("failed %v, err %v; want the 5th log's error", failed, err)
	}
	want := [][]int{{0, 3}, {1, 5}, {2}}
	if len(groups) != len(want) {
		t.Fatalf("groups %v, want %v", groups, want)
	}
	for k := range want {
		if len(groups[k]) != len(want[k]) {
			t.Fatalf("groups %v, want %v", groups, want)
		}
		for j := range want[k] {
			if groups[k][j] != want[k][j] {
				t.Fatalf("groups %v, want %v", groups, want)
			}
		}
	}
	one, _, err := MachineGroups(1, func(int) (string, error) { t.Fatal("one log opened"); return "", nil })
	if err != nil || len(one) != 1 || len(one[0]) != 1 || one[0][0] != 0 {
		t.Errorf("one log: %v, %v", one, err)
	}
	_, _, err = MachineGroups(relog.MaxInputs+2, func(i int) (string, error) {
		if i == 0 {
			return "other", nil
		}
		return "m", nil
	})
	var ge *GroupsError
	if !errors.As(err, &ge) || ge.Count != relog.MaxInputs+1 || ge.First != 1 || !strings.Contains(err.Error(), "at most 32") {
		t.Errorf("too many logs of one machine: %v", err)
	}
}
