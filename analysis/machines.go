package analysis

import (
	"strconv"
	"strings"

	"github.com/perfcalc/perfcalc/engine/relog"
)

// LogMachine is the machine whose counters the log c holds, as perfcalc
// analyze groups logs by it: its first column's machine, in lower case
// ("" for a log of no column or of counters without a machine).
func LogMachine(c *relog.Converter) string {
	if cols := c.Columns(); len(cols) > 0 {
		return strings.ToLower(cols[0].Parts.Machine)
	}
	return ""
}

// GroupsError refuses more logs of one machine than relog merges
// (relog.MaxInputs): Count logs, the first of them the First-th given
// (from 0).
type GroupsError struct {
	Count int
	First int
}

// Error says how many logs of one machine, and the limit.
func (e *GroupsError) Error() string {
	return strconv.Itoa(e.Count) + " logs of one machine: perfcalc merges at most " + strconv.Itoa(relog.MaxInputs)
}

// MachineGroups groups n logs by their machine, as perfcalc analyze
// analyzes them (one section per machine, and a fleet summary with
// several; the command and the module's analyze, the same code): the
// groups hold the logs' indexes, in the order of the logs, and each group
// in the order of its machine's first log. machine(i) returns the i-th
// log's machine (LogMachine of the log opened); a log whose machine
// returns an error is left out of the groups, its error in failed. One log
// is its own group (machine is not called). A group of more than
// relog.MaxInputs logs is a *GroupsError.
func MachineGroups(n int, machine func(i int) (string, error)) (groups [][]int, failed []error, err error) {
	if n == 1 {
		return [][]int{{0}}, nil, nil
	}
	index := map[string]int{}
	for i := 0; i < n; i++ {
		m, err := machine(i)
		if err != nil {
			failed = append(failed, err)
			continue
		}
		k, ok := index[m]
		if !ok {
			k = len(groups)
			index[m] = k
			groups = append(groups, nil)
		}
		groups[k] = append(groups[k], i)
	}
	for _, g := range groups {
		if len(g) > relog.MaxInputs {
			return nil, nil, &GroupsError{Count: len(g), First: g[0]}
		}
	}
	return groups, failed, nil
}
