package blgbuild

import "unicode/utf16"

// IdentityLog returns a raw-record log of \\HOST's Thread and Process
// objects (three samples, one second apart) whose instances the IDs alone
// cannot all tell apart, for the tests of --identity pid:
//
//   - Thread(*/*)\Context Switches/sec, ID Process and ID Thread: the
//     Idle process's threads Idle/0 … Idle/3, all with ID Process 0 and
//     ID Thread 0 (as Windows reports them), switching 10, 20, 30 and 40
//     times a second; _Total/_Total (also 0 and 0, 1000/s); app/0,
//     process 100's thread 1000 (5/s), then at the last sample process
//     200's thread 2000 (the app restarted: the same PDH name, another
//     process);
//   - Process(*)\% Processor Time, ID Process and Creating Process ID:
//     Idle (PID 0, 50 %), app (PID 100, 10 %; then PID 200 at the last
//     sample), two svchost with one PID, 500, and one creator, 4 (30 % and
//     40 %: a damaged log's), _Total (90 %).
func IdentityLog() []byte {
	const local = 130057734178440000
	const utc = local + 8*3600*10_000_000
	const second = 10_000_000
	l := New(8192, utc)
	specs := []Counter{
		{Flags: 1, Type: 0x10410400, TimeBase: second, Machine: `\\HOST`, Object: "Thread", Parent: "*", Instance: "*", Counter: "Context Switches/sec"},
		{Flags: 1, Type: 0x00010000, Machine: `\\HOST`, Object: "Thread", Parent: "*", Instance: "*", Counter: "ID Process"},
		{Flags: 1, Type: 0x00010000, Machine: `\\HOST`, Object: "Thread", Parent: "*", Instance: "*", Counter: "ID Thread"},
		{Flags: 1, Type: 0x20510500, TimeBase: second, Machine: `\\HOST`, Object: "Process", Instance: "*", Counter: "% Processor Time"},
		{Flags: 1, Type: 0x00010000, Machine: `\\HOST`, Object: "Process", Instance: "*", Counter: "ID Process"},
		{Flags: 1, Type: 0x00010000, Machine: `\\HOST`, Object: "Process", Instance: "*", Counter: "Creating Process ID"},
	}
	l.Record(EventCounterList, local, AppendCounterList(nil, specs...), 8000)
	// inst is an instance: its name, its rate (per second, or in 100 ns
	// ticks per second), its two IDs, and the samples from and to which it
	// lives.
	type inst struct {
		name     string
		rate     uint64
		pid, aux uint64
		from, to int64
	}
	threads := []inst{
		{"Idle/0", 10, 0, 0, 0, 2}, {"Idle/1", 20, 0, 0, 0, 2}, {"Idle/2", 30, 0, 0, 0, 2}, {"Idle/3", 40, 0, 0, 0, 2},
		{"_Total/_Total", 1000, 0, 0, 0, 2}, {"app/0", 5, 100, 1000, 0, 1}, {"app/0", 7, 200, 2000, 2, 2},
	}
	procs := []inst{
		{"Idle", 5_000_000, 0, 0, 0, 2}, {"app", 1_000_000, 100, 4, 0, 1}, {"app", 2_000_000, 200, 4, 2, 2},
		{"svchost", 3_000_000, 500, 4, 0, 2}, {"svchost", 4_000_000, 500, 4, 0, 2}, {"_Total", 9_000_000, 0, 0, 0, 2},
	}
	for i := range int64(3) {
		ts := utc + i*second
		var subs []byte
		for _, insts := range [][]inst{threads, procs} {
			var names [][]uint16
			var vals [3][]uint64
			for _, in := range insts {
				if i < in.from || i > in.to {
					continue
				}
				n := uint64(i - in.from + 1)
				names = append(names, utf16.Encode([]rune(in.name)))
				vals[0] = append(vals[0], in.rate*n)
				vals[1] = append(vals[1], in.pid)
				vals[2] = append(vals[2], in.aux)
			}
			for _, v := range vals {
				subs = append(subs, MultiSubRecord(ts, names, v)...)
			}
		}
		rec := append([]byte{'B', 'L', 3, 0, 0, 0, 0, 0}, subs...)
		le.PutUint32(rec[4:], uint32(len(rec)))
		l.Record(EventSample, local+i*second, rec, 8000)
	}
	return l.Bytes()
}
