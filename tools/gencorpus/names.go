package gencorpus

import (
	"errors"
	"sort"
	"strconv"

	"github.com/perfcalc/perfcalc/tools/encode"
)

// BaseIndex is the text of the first pair of the Counter table, "1" →
// "<Base Index>" (1847 on Vista and Windows 10, as in the real tables).
const BaseIndex = "1847"

// titles are the names of the title indexes the V1 pair uses: the real
// "Counter 009" indexes and names of Windows (doc/FORMATS.md §3.1), and
// TypesObject's own even indexes from 9000.
var titles = map[uint32]string{
	2: "System", 4: "Memory", 230: "Process", 232: "Thread", 234: "PhysicalDisk", 236: "LogicalDisk", 238: "Processor",
	6: "% Processor Time", 10: "File Read Operations/sec", 12: "File Write Operations/sec",
	14: "File Control Operations/sec", 16: "File Read Bytes/sec", 18: "File Write Bytes/sec",
	24: "Available Bytes", 26: "Committed Bytes", 28: "Page Faults/sec", 30: "Commit Limit", 40: "Pages/sec",
	42: "Page Reads/sec", 44: "Processor Queue Length", 46: "Thread State", 48: "Pages Output/sec",
	56: "Pool Paged Bytes", 58: "Pool Nonpaged Bytes", 142: "% User Time", 144: "% Privileged Time",
	146: "Context Switches/sec", 148: "Interrupts/sec", 150: "System Calls/sec", 174: "Virtual Bytes",
	180: "Working Set", 186: "Private Bytes", 198: "Current Disk Queue Length", 200: "% Disk Time",
	202: "% Disk Read Time", 204: "% Disk Write Time", 206: "Avg. Disk sec/Transfer", 208: "Avg. Disk sec/Read",
	210: "Avg. Disk sec/Write", 212: "Disk Transfers/sec", 214: "Disk Reads/sec", 216: "Disk Writes/sec",
	218: "Disk Bytes/sec", 220: "Disk Read Bytes/sec", 222: "Disk Write Bytes/sec", 224: "Avg. Disk Bytes/Transfer",
	226: "Avg. Disk Bytes/Read", 228: "Avg. Disk Bytes/Write", 248: "Processes", 250: "Threads",
	336: "Thread Wait Reason", 406: "File Data Operations/sec", 408: "% Free Space", 410: "Free Megabytes",
	674: "System Up Time", 680: "Thread Count", 682: "Priority Base", 684: "Elapsed Time", 694: "Priority Current",
	696: "% DPC Time", 698: "% Interrupt Time", 706: "Start Address", 784: "ID Process", 804: "ID Thread",
	818: "Cache Bytes", 822: "Pages Input/sec", 952: "Handle Count", 1334: "DPCs Queued/sec", 1336: "DPC Rate",
	1350: "% Registry Quota In Use", 1380: "Available KBytes", 1382: "Available MBytes",
	1400: "Avg. Disk Queue Length", 1402: "Avg. Disk Read Queue Length", 1404: "Avg. Disk Write Queue Length",
	1406: "% Committed Bytes In Use", 1410: "Creating Process ID", 1412: "IO Read Operations/sec",
	1420: "IO Read Bytes/sec", 1478: "Working Set - Private", 1482: "% Idle Time", 1484: "Split IO/Sec",
	1746: "% Idle Time", 1748: "% C1 Time", 1754: "C1 Transitions/sec",
	TypesObject: "PerfCalc Types",
}

// helpTexts are short help texts, written for this corpus, by help index.
// The help index is the name index + 1, except for % DPC Time (696), whose
// help index is 339 as in the real captures (doc/FORMATS.md §1.4).
var helpTexts = map[uint32]string{
	3: "The System object: counters for the computer as a whole.", 5: "The Memory object: physical and virtual memory.",
	231: "The Process object: one instance per running process.", 233: "The Thread object: one instance per thread, a child of Process.",
	235: "The PhysicalDisk object: one instance per hard disk.", 237: "The LogicalDisk object: one instance per volume.",
	239: "The Processor object: one instance per logical processor.",
	7:   "Percentage of the interval the processor (or process, or thread) was busy.",
	11:  "File read operations per second.", 13: "File write operations per second.",
	15: "File operations other than reads and writes, per second.", 17: "Bytes read from files per second.",
	19: "Bytes written to files per second.", 25: "Physical memory available right now, in bytes.",
	27: "Committed virtual memory, in bytes.", 29: "Page faults per second.", 31: "The commit limit, in bytes.",
	41: "Pages read from or written to disk per second.", 43: "Disk reads for paging, per second.",
	45: "Threads ready to run but waiting for a processor.", 47: "State of the thread (2 running, 5 waiting).",
	49: "Pages written to disk per second.", 57: "Paged pool size, in bytes.", 59: "Non-paged pool size, in bytes.",
	143: "Percentage of the interval spent in user mode.", 145: "Percentage of the interval spent in kernel mode.",
	147: "Thread switches per second.", 149: "Hardware interrupts per second.", 151: "System service calls per second.",
	175: "Virtual address space in use, in bytes.", 181: "Working set, in bytes.", 187: "Private memory, in bytes.",
	199: "Requests outstanding at the time of the sample.", 201: "Percentage of the interval the disk was busy.",
	203: "Percentage of the interval the disk was busy with reads.", 205: "Percentage of the interval the disk was busy with writes.",
	207: "Average time of a transfer, in seconds.", 209: "Average time of a read, in seconds.",
	211: "Average time of a write, in seconds.", 213: "Transfers per second.", 215: "Reads per second.",
	217: "Writes per second.", 219: "Bytes transferred per second.", 221: "Bytes read per second.",
	223: "Bytes written per second.", 225: "Average bytes per transfer.", 227: "Average bytes per read.",
	229: "Average bytes per write.", 249: "Processes at the time of the sample.", 251: "Threads at the time of the sample.",
	337: "Why the thread is waiting.", 407: "File reads and writes per second.",
	409: "Free space as a percentage of the volume's size.", 411: "Free space, in megabytes.",
	675: "Seconds since the computer started.", 681: "Threads of the process.", 683: "Base priority.",
	685: "Seconds since the process or thread started.", 695: "Current priority of the thread.",
	339: "Percentage of the interval spent in deferred procedure calls.", 699: "Percentage of the interval spent in interrupts.",
	707: "Start address of the thread.", 785: "Process identifier.", 805: "Thread identifier.",
	819: "File system cache, in bytes.", 823: "Pages read from disk per second for paging.", 953: "Open handles.",
	1335: "Deferred procedure calls queued per second.", 1337: "Deferred procedure calls queued per clock tick.",
	1351: "Registry space in use as a percentage of the quota.", 1381: "Physical memory available, in kilobytes.",
	1383: "Physical memory available, in megabytes.", 1401: "Average requests queued on the disk.",
	1403: "Average read requests queued on the disk.", 1405: "Average write requests queued on the disk.",
	1407: "Committed bytes as a percentage of the commit limit.", 1411: "Identifier of the process's creator.",
	1413: "Read operations per second.", 1421: "Bytes read per second.", 1479: "Private working set, in bytes.",
	1483: "Percentage of the interval the disk was idle.", 1485: "Split I/Os per second.",
	1747: "Percentage of the interval the processor was idle.", 1749: "Percentage of the interval spent in the C1 state.",
	1755:            "Entries into the C1 state per second.",
	TypesObject + 1: "Counters of every winperf.h type, generated for perfcalc's tests.",
}

// nameTables builds "Counter 009" and "Help 009" for every title and help
// index the V1 pair uses, in increasing index order.
func nameTables() (counters, helps []byte, err error) {
	names := map[uint32]string{}
	help := map[uint32]string{}
	need := func(idx, hidx uint32) error {
		n, ok := titles[idx]
		if !ok && idx >= TypesObject {
			if k := int(idx-TypesObject-2) / 2; idx > TypesObject && k < len(typeCounters()) {
				n, ok = typeCounters()[k].typ.String(), true
			}
		}
		h, hok := helpTexts[hidx]
		if !hok && idx > TypesObject && ok {
			h, hok = "A counter of type "+n+".", true
		}
		if !ok || !hok {
			return errors.New("no name or help text for index " + strconv.Itoa(int(idx)) + "/" + strconv.Itoa(int(hidx)))
		}
		names[idx], help[hidx] = n, h
		return nil
	}
	for s := range 2 {
		b, err := globalDesc(s)
		if err != nil {
			return nil, nil, err
		}
		for _, o := range b.Objects {
			if err := need(o.ObjectNameTitleIndex, o.ObjectHelpTitleIndex); err != nil {
				return nil, nil, err
			}
			for _, c := range o.Counters {
				if err := need(c.CounterNameTitleIndex, c.CounterHelpTitleIndex); err != nil {
					return nil, nil, err
				}
			}
		}
	}
	ct := encode.NameTable{Pairs: []encode.NameTablePair{{Index: 1, Text: BaseIndex}}}
	ct.Pairs = append(ct.Pairs, sortedPairs(names)...)
	ht := encode.NameTable{Pairs: sortedPairs(help)}
	if counters, err = encode.EncodeNameTable(&ct); err != nil {
		return nil, nil, err
	}
	if helps, err = encode.EncodeNameTable(&ht); err != nil {
		return nil, nil, err
	}
	return counters, helps, nil
}

func sortedPairs(m map[uint32]string) []encode.NameTablePair {
	ps := make([]encode.NameTablePair, 0, len(m))
	for i, t := range m {
		ps = append(ps, encode.NameTablePair{Index: i, Text: t})
	}
	sort.Slice(ps, func(a, b int) bool { return ps[a].Index < ps[b].Index })
	return ps
}
