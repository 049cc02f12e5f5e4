package gencorpus

import (
	"errors"
	"math"
	"strconv"
	"time"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/wintype"
	"github.com/perfcalc/perfcalc/tools/encode"
)

// The machine and the clocks of the V1 pair (README: "Time stamps").
const (
	// MachineName is the system name of the V1 pair.
	MachineName = "PERFCALC-DEMO"
	// QPCFrequency is PERF_DATA_BLOCK.PerfFreq: a 10 MHz QueryPerformanceCounter,
	// as on Windows 10 and later.
	QPCFrequency = 10_000_000
	// Interval is the time between the two samples, in QPC ticks and in
	// 100 ns units alike: exactly one second.
	Interval = 10_000_000
	// UpTime1 is System Up Time at the first sample, in seconds.
	UpTime1 = 273_645
	// TypesFrequency is the private PerfFreq of the "PerfCalc Types" object
	// (the 3.579545 MHz ACPI PM timer of older machines).
	TypesFrequency = 3_579_545
	// TypesObject is the title index of the "PerfCalc Types" object, which
	// holds one counter of every winperf.h type.
	TypesObject = 9000

	objLag    = 9_780                   // object time stamps are read ~1 ms after the block's
	qpcLag    = 1_234_567               // QPC ticks between boot and the QPC's start
	localBias = 60 * time.Minute        // the machine's local time is UTC+1 (CET)
	typesObj1 = 987_654_321_012         // the types object's PerfTime at sample 1
	fileEpoch = 116_444_736_000_000_000 // FILETIME of 1970-01-01
)

// sample1 is the UTC time of the first sample.
var sample1 = time.Date(2026, time.March, 14, 9, 15, 30, 250_000_000, time.UTC)

func fileTime(t time.Time) int64 { return t.Unix()*10_000_000 + int64(t.Nanosecond()/100) + fileEpoch }

// PerfTime100nSec returns PERF_DATA_BLOCK.PerfTime100nSec of sample s (0 or 1).
func PerfTime100nSec(s int) int64 { return fileTime(sample1) + int64(s)*Interval }

// PerfTime returns PERF_DATA_BLOCK.PerfTime of sample s (0 or 1).
func PerfTime(s int) int64 { return UpTime1*10_000_000 - qpcLag + int64(s)*Interval }

// objTime is the private PerfTime (a FILETIME, PerfFreq 10,000,000) of the
// System, Process and Thread objects in sample s.
func objTime(s int) int64 { return PerfTime100nSec(s) + objLag }

// bootTime is the FILETIME of the machine's boot: System Up Time is exactly
// UpTime1 seconds at the first sample.
func bootTime() int64 { return objTime(0) - UpTime1*10_000_000 }

// sinceBoot returns the FILETIME sec seconds after boot.
func sinceBoot(sec float64) uint64 { return uint64(bootTime() + int64(math.Round(sec*10_000_000))) }

func systemTime(t time.Time) wintype.SystemTime {
	return wintype.SystemTime{
		Year: uint16(t.Year()), Month: uint16(t.Month()), DayOfWeek: uint16(t.Weekday()), Day: uint16(t.Day()),
		Hour: uint16(t.Hour()), Minute: uint16(t.Minute()), Second: uint16(t.Second()),
		Milliseconds: uint16(t.Nanosecond() / 1_000_000),
	}
}

// def is a counter definition; its bytes are its own, or those of an
// earlier definition (share = 1 + that definition's position).
type def struct {
	name   uint32
	help   uint32 // 0: name+1
	typ    engine.CounterType
	size   uint32
	scale  int32
	detail uint32
	share  int
}

// layout turns defs into encode.V1Counters with offsets: every definition
// that does not share gets its own slot (encode.V1Layout), one that shares
// gets the offset of the one it shares.
func layout(defs []def) []encode.V1Counter {
	var own []encode.V1Counter
	var pos []int
	out := make([]encode.V1Counter, len(defs))
	for i, d := range defs {
		help := d.help
		if help == 0 {
			help = d.name + 1
		}
		out[i] = encode.V1Counter{CounterNameTitleIndex: d.name, CounterHelpTitleIndex: help, DefaultScale: d.scale,
			DetailLevel: d.detail, CounterType: d.typ, CounterSize: d.size}
		if d.share == 0 {
			own = append(own, out[i])
			pos = append(pos, i)
		}
	}
	encode.V1Layout(own)
	for k, i := range pos {
		out[i].CounterOffset = own[k].CounterOffset
	}
	for i, d := range defs {
		if d.share != 0 {
			out[i].CounterOffset = out[d.share-1].CounterOffset
		}
	}
	return out
}

// objectDetail is the lowest DetailLevel of the counters.
func objectDetail(cs []encode.V1Counter) uint32 {
	m := uint32(400)
	for _, c := range cs {
		m = min(m, c.DetailLevel)
	}
	return m
}

// lin is a cumulative raw value: a at the first sample, a+d at the second.
func lin(a, d uint64, s int) uint64 { return a + uint64(s)*d }

func single(idx uint32, cs []encode.V1Counter, defCounter int32, vals []uint64, multi []uint32) encode.V1Object {
	return encode.V1Object{ObjectNameTitleIndex: idx, ObjectHelpTitleIndex: idx + 1, DetailLevel: objectDetail(cs),
		DefaultCounter: defCounter, NumInstances: -1, Counters: cs,
		Instances: []encode.V1Instance{{Values: vals, MultiCounts: multi}}}
}

func multi(idx uint32, cs []encode.V1Counter, defCounter int32, insts []encode.V1Instance) encode.V1Object {
	for i := range insts {
		if insts[i].UniqueID == 0 {
			insts[i].UniqueID = -1 // PERF_NO_UNIQUE_ID
		}
	}
	return encode.V1Object{ObjectNameTitleIndex: idx, ObjectHelpTitleIndex: idx + 1, DetailLevel: objectDetail(cs),
		DefaultCounter: defCounter, NumInstances: int32(len(insts)), Counters: cs, Instances: insts}
}

// globalDesc describes sample s (0 or 1) of the Global pair.
func globalDesc(s int) (*encode.V1Blob, error) {
	procs := processesIn(s)
	threads := threadsIn(procs)
	b := &encode.V1Blob{
		SystemName:      MachineName,
		SystemTime:      systemTime(sample1.Add(time.Duration(s) * time.Second).Add(localBias)),
		DefaultObject:   238,
		PerfTime:        PerfTime(s),
		PerfFreq:        QPCFrequency,
		PerfTime100nSec: PerfTime100nSec(s),
		Objects: []encode.V1Object{
			systemObject(s, len(procs), len(threads)),
			memoryObject(s),
			processObject(s, procs),
			threadObject(s, threads),
			physicalDiskObject(s),
			logicalDiskObject(s),
			processorObject(s),
			typesObject(s),
		},
	}
	for i := 1; i < len(b.Objects); i++ {
		if b.Objects[i].ObjectNameTitleIndex <= b.Objects[i-1].ObjectNameTitleIndex {
			return nil, errors.New("objects out of title-index order")
		}
	}
	return b, nil
}

func globalBlob(s int) ([]byte, error) {
	b, err := globalDesc(s)
	if err != nil {
		return nil, err
	}
	return encode.EncodeV1(b)
}

// System (2): no instances, object timer for System Up Time.
func systemObject(s, nProcs, nThreads int) encode.V1Object {
	cs := layout([]def{
		{name: 10, typ: engine.CounterCounter, size: 4, detail: 100},
		{name: 12, typ: engine.CounterCounter, size: 4, detail: 100},
		{name: 14, typ: engine.CounterCounter, size: 4, detail: 200},
		{name: 16, typ: engine.CounterBulkCount, size: 8, scale: -4, detail: 300},
		{name: 18, typ: engine.CounterBulkCount, size: 8, scale: -4, detail: 300},
		{name: 146, typ: engine.CounterCounter, size: 4, scale: -2, detail: 200},
		{name: 150, typ: engine.CounterCounter, size: 4, scale: -1, detail: 200},
		{name: 406, typ: engine.CounterCounter, size: 4, detail: 100},
		{name: 674, typ: engine.ElapsedTime, size: 8, scale: -5, detail: 100},
		{name: 44, typ: engine.CounterRawcount, size: 4, scale: 1, detail: 400},
		{name: 248, typ: engine.CounterRawcount, size: 4, scale: 1, detail: 400},
		{name: 250, typ: engine.CounterRawcount, size: 4, scale: 1, detail: 400},
		{name: 1350, typ: engine.RawFraction, size: 4, detail: 200},
		{name: 1350, typ: engine.RawBase, size: 4, detail: 200},
	})
	vals := []uint64{
		lin(18_234_567, 412, s),
		lin(9_876_543, 188, s),
		lin(45_678_901, 1_024, s),
		lin(912_345_678_901, 3_276_800, s),
		lin(345_678_901_234, 1_048_576, s),
		lin(1_987_654_321, 7_850, s),
		lin(3_456_789_012, 41_230, s),
		lin(18_234_567+9_876_543, 412+188, s),
		uint64(bootTime()),
		[]uint64{2, 0}[s],
		uint64(nProcs),
		uint64(nThreads),
		33_554_432,
		536_870_912,
	}
	o := single(2, cs, 8, vals, nil)
	o.PerfTime, o.PerfFreq = objTime(s), 10_000_000
	return o
}

// Memory (4): no instances.
func memoryObject(s int) encode.V1Object {
	cs := layout([]def{
		{name: 28, typ: engine.CounterCounter, size: 4, scale: -1, detail: 100},
		{name: 24, typ: engine.CounterLargeRawcount, size: 8, scale: -6, detail: 300},
		{name: 26, typ: engine.CounterLargeRawcount, size: 8, scale: -6, detail: 300},
		{name: 30, typ: engine.CounterLargeRawcount, size: 8, scale: -6, detail: 400},
		{name: 40, typ: engine.CounterCounter, size: 4, detail: 100},
		{name: 822, typ: engine.CounterCounter, size: 4, detail: 100},
		{name: 42, typ: engine.CounterCounter, size: 4, detail: 300},
		{name: 48, typ: engine.CounterCounter, size: 4, detail: 200},
		{name: 56, typ: engine.CounterLargeRawcount, size: 8, scale: -5, detail: 200},
		{name: 58, typ: engine.CounterLargeRawcount, size: 8, scale: -5, detail: 200},
		{name: 818, typ: engine.CounterLargeRawcount, size: 8, scale: -5, detail: 200},
		{name: 1406, typ: engine.RawFraction, size: 4, detail: 300},
		{name: 1406, typ: engine.RawBase, size: 4, detail: 300},
		{name: 1380, typ: engine.CounterLargeRawcount, size: 8, detail: 300},
		{name: 1382, typ: engine.CounterLargeRawcount, size: 8, detail: 300},
	})
	avail := []uint64{6_442_450_944, 6_441_402_368}[s] // 6 GiB, then 1 MiB less
	committed := []uint64{9_663_676_416, 9_664_724_992}[s]
	const limit = 19_327_352_832 // 18 GiB
	vals := []uint64{
		lin(123_456_789, 2_345, s),
		avail,
		committed,
		limit,
		lin(4_567_890, 96, s),
		lin(3_456_789, 64, s),
		lin(1_234_567, 12, s),
		lin(1_111_101, 32, s),
		456_789_504,
		234_881_024,
		lin(123_731_968, 4_096, s),
		committed / 4096, // real data: the fraction in pages
		limit / 4096,
		avail / 1024,
		avail / (1 << 20),
	}
	return single(4, cs, 0, vals, nil)
}

// processorCPU holds one Processor instance's cumulative raw values (at
// the first sample) and their increments over the interval.
type processorCPU struct {
	name                        string
	idle, user, priv, dpc, intr [2]uint64 // 100 ns; [0] value, [1] delta
	c1, c1Trans                 [2]uint64
	interrupts, dpcsQueued      [2]uint64
	dpcRate                     [2]uint64 // the two samples
}

var cpus = []processorCPU{
	{name: "0", idle: [2]uint64{2_400_000_000_000, 6_000_000}, user: [2]uint64{200_000_000_000, 2_500_000},
		priv: [2]uint64{136_450_000_000, 1_500_000}, dpc: [2]uint64{3_456_780_000, 100_000}, intr: [2]uint64{2_345_670_000, 50_000},
		c1: [2]uint64{2_000_000_000_000, 5_000_000}, c1Trans: [2]uint64{987_654_321, 1_800},
		interrupts: [2]uint64{2_400_123_456, 2_150}, dpcsQueued: [2]uint64{45_678_912, 300}, dpcRate: [2]uint64{3, 2}},
	{name: "1", idle: [2]uint64{2_500_000_000_000, 9_000_000}, user: [2]uint64{150_000_000_000, 600_000},
		priv: [2]uint64{86_450_000_000, 400_000}, dpc: [2]uint64{1_234_560_000, 20_000}, intr: [2]uint64{1_234_560_000, 30_000},
		c1: [2]uint64{2_200_000_000_000, 8_500_000}, c1Trans: [2]uint64{567_890_123, 900},
		interrupts: [2]uint64{1_500_654_321, 1_350}, dpcsQueued: [2]uint64{12_345_678, 120}, dpcRate: [2]uint64{1, 1}},
}

// Processor (238): CPUs 0 and 1 and _Total (times averaged, counts summed,
// as Windows does); % Idle Time shares the raw value of % Processor Time.
func processorObject(s int) encode.V1Object {
	cs := layout([]def{
		{name: 6, typ: engine.Timer100nsInv, size: 8, detail: 100},
		{name: 142, typ: engine.Timer100ns, size: 8, detail: 200},
		{name: 144, typ: engine.Timer100ns, size: 8, detail: 200},
		{name: 148, typ: engine.CounterCounter, size: 4, scale: -2, detail: 100},
		{name: 696, help: 339, typ: engine.Timer100ns, size: 8, detail: 200},
		{name: 698, typ: engine.Timer100ns, size: 8, detail: 200},
		{name: 1334, typ: engine.CounterCounter, size: 4, detail: 200},
		{name: 1336, typ: engine.CounterRawcount, size: 4, detail: 200},
		{name: 1746, typ: engine.Timer100ns, size: 8, detail: 400, share: 1},
		{name: 1748, typ: engine.Timer100ns, size: 8, detail: 400},
		{name: 1754, typ: engine.CounterBulkCount, size: 8, detail: 400},
	})
	row := func(c processorCPU) []uint64 {
		l := func(v [2]uint64) uint64 { return lin(v[0], v[1], s) }
		return []uint64{l(c.idle), l(c.user), l(c.priv), l(c.interrupts), l(c.dpc), l(c.intr),
			l(c.dpcsQueued), c.dpcRate[s], l(c.idle), l(c.c1), l(c.c1Trans)}
	}
	var insts []encode.V1Instance
	total := make([]uint64, len(cs))
	for _, c := range cpus {
		v := row(c)
		for i := range v {
			total[i] += v[i]
		}
		insts = append(insts, encode.V1Instance{Name: c.name, Values: v})
	}
	for _, i := range []int{0, 1, 2, 4, 5, 8, 9} { // times: the average of the CPUs
		total[i] /= uint64(len(cpus))
	}
	insts = append(insts, encode.V1Instance{Name: "_Total", Values: total})
	return multi(238, cs, 0, insts)
}

// disk is one PhysicalDisk/LogicalDisk instance: increments over the
// interval and cumulative values at the first sample.
type disk struct {
	reads, writes         [2]uint64 // counts
	readBytes, writeBytes [2]uint64
	readTime, writeTime   [2]uint64 // 100 ns, summed over requests
	idleTime              [2]uint64 // 100 ns
	readTicks, writeTicks [2]uint64 // QPC ticks, summed over requests (4-byte for PhysicalDisk)
	split                 [2]uint64
	queue                 [2]uint64 // Current Disk Queue Length in the two samples
}

var physDisks = []struct {
	name string
	d    disk
}{
	{"0 C:", disk{reads: [2]uint64{9_876_543, 120}, writes: [2]uint64{5_432_109, 80},
		readBytes: [2]uint64{161_817_067_520, 120 * 16_384}, writeBytes: [2]uint64{44_503_113_728, 80 * 8_192},
		readTime: [2]uint64{24_688_355_000, 1_200_000}, writeTime: [2]uint64{3_017_704_000, 600_000},
		idleTime:  [2]uint64{2_700_123_450_000, 8_400_000},
		readTicks: [2]uint64{2_017_508_496, 1_200_000}, writeTicks: [2]uint64{1_000_000_000, 600_000},
		split: [2]uint64{826, 3}, queue: [2]uint64{1, 0}}},
	{"1 D:", disk{reads: [2]uint64{1_234_567, 10}, writes: [2]uint64{2_345_678, 30},
		readBytes: [2]uint64{80_908_533_760, 10 * 65_536}, writeBytes: [2]uint64{9_607_897_088, 30 * 4_096},
		readTime: [2]uint64{6_172_835_000, 200_000}, writeTime: [2]uint64{7_036_364_000, 300_000},
		idleTime:  [2]uint64{2_722_345_670_000, 9_500_000},
		readTicks: [2]uint64{300_000_000, 200_000}, writeTicks: [2]uint64{212_345_678, 300_000},
		split: [2]uint64{12, 0}, queue: [2]uint64{0, 0}}},
}

// at returns the disk's values at sample s: counts, bytes, 100 ns times,
// QPC tick sums, split I/Os and the current queue length.
func (d *disk) at(s int) (reads, writes, rb, wb, rt, wt, idle, rticks, wticks, split, queue uint64) {
	l := func(v [2]uint64) uint64 { return lin(v[0], v[1], s) }
	return l(d.reads), l(d.writes), l(d.readBytes), l(d.writeBytes), l(d.readTime), l(d.writeTime),
		l(d.idleTime), l(d.readTicks), l(d.writeTicks), l(d.split), d.queue[s]
}

// diskStamp is the PERF_PRECISION_TIMESTAMP of the disk objects: a 100 ns
// clock read just after the block's PerfTime100nSec.
func diskStamp(s int) uint64 { return uint64(PerfTime100nSec(s) + 5_000) }

// PhysicalDisk (234): precision timers sharing one time stamp, queue
// lengths, 4-byte average timers, average bulks.
func physicalDiskObject(s int) encode.V1Object {
	const ts = 3 // the position of the first PERF_PRECISION_TIMESTAMP (1-based)
	cs := layout([]def{
		{name: 198, typ: engine.CounterRawcount, size: 4, scale: 1, detail: 100},
		{name: 200, typ: engine.Precision100nsTimer, size: 8, detail: 100},
		{name: 200, typ: engine.PrecisionTimestamp, size: 8, detail: 100},
		{name: 1400, typ: engine.Counter100nsQueuelenType, size: 8, scale: 2, detail: 100},
		{name: 202, typ: engine.Precision100nsTimer, size: 8, detail: 100},
		{name: 202, typ: engine.PrecisionTimestamp, size: 8, detail: 100, share: ts},
		{name: 1402, typ: engine.Counter100nsQueuelenType, size: 8, scale: 2, detail: 100},
		{name: 204, typ: engine.Precision100nsTimer, size: 8, detail: 100},
		{name: 204, typ: engine.PrecisionTimestamp, size: 8, detail: 100, share: ts},
		{name: 1404, typ: engine.Counter100nsQueuelenType, size: 8, scale: 2, detail: 100},
		{name: 206, typ: engine.AverageTimer, size: 4, scale: 3, detail: 200},
		{name: 206, typ: engine.AverageBase, size: 4, detail: 200},
		{name: 208, typ: engine.AverageTimer, size: 4, scale: 3, detail: 200},
		{name: 208, typ: engine.AverageBase, size: 4, detail: 200},
		{name: 210, typ: engine.AverageTimer, size: 4, scale: 3, detail: 200},
		{name: 210, typ: engine.AverageBase, size: 4, detail: 200},
		{name: 212, typ: engine.CounterCounter, size: 4, detail: 100},
		{name: 214, typ: engine.CounterCounter, size: 4, detail: 100},
		{name: 216, typ: engine.CounterCounter, size: 4, detail: 100},
		{name: 218, typ: engine.CounterBulkCount, size: 8, scale: -4, detail: 200},
		{name: 220, typ: engine.CounterBulkCount, size: 8, scale: -4, detail: 200},
		{name: 222, typ: engine.CounterBulkCount, size: 8, scale: -4, detail: 200},
		{name: 224, typ: engine.AverageBulk, size: 8, scale: -2, detail: 300},
		{name: 224, typ: engine.AverageBase, size: 4, detail: 300},
		{name: 226, typ: engine.AverageBulk, size: 8, scale: -2, detail: 300},
		{name: 226, typ: engine.AverageBase, size: 4, detail: 300},
		{name: 228, typ: engine.AverageBulk, size: 8, scale: -2, detail: 300},
		{name: 228, typ: engine.AverageBase, size: 4, detail: 300},
		{name: 1482, typ: engine.Precision100nsTimer, size: 8, detail: 200},
		{name: 1482, typ: engine.PrecisionTimestamp, size: 8, detail: 100, share: ts},
		{name: 1484, typ: engine.CounterCounter, size: 4, detail: 200},
	})
	stamp := diskStamp(s)
	row := func(d *disk, avgTimes bool) []uint64 {
		r, w, rb, wb, rt, wt, idle, rtk, wtk, split, q := d.at(s)
		busy := rt + wt
		if avgTimes { // _Total: the precision timers are averaged over the disks
			n := uint64(len(physDisks))
			busy, rt, wt, idle = busy/n, rt/n, wt/n, idle/n
		}
		qr, qw := d.readTime, d.writeTime
		ql := lin(qr[0], qr[1], s) + lin(qw[0], qw[1], s) // queue lengths are summed, not averaged
		return []uint64{q,
			busy, stamp, ql,
			rt, stamp, lin(qr[0], qr[1], s),
			wt, stamp, lin(qw[0], qw[1], s),
			rtk + wtk, r + w,
			rtk, r, wtk, w,
			r + w, r, w,
			rb + wb, rb, wb,
			rb + wb, r + w, rb, r, wb, w,
			idle, stamp, split}
	}
	var insts []encode.V1Instance
	var tot disk
	for i := range physDisks {
		d := &physDisks[i].d
		insts = append(insts, encode.V1Instance{Name: physDisks[i].name, Values: row(d, false)})
		sum := func(a *[2]uint64, b [2]uint64) { a[0] += b[0]; a[1] += b[1] }
		sum(&tot.reads, d.reads)
		sum(&tot.writes, d.writes)
		sum(&tot.readBytes, d.readBytes)
		sum(&tot.writeBytes, d.writeBytes)
		sum(&tot.readTime, d.readTime)
		sum(&tot.writeTime, d.writeTime)
		sum(&tot.idleTime, d.idleTime)
		sum(&tot.readTicks, d.readTicks)
		sum(&tot.writeTicks, d.writeTicks)
		sum(&tot.split, d.split)
		sum(&tot.queue, d.queue)
	}
	insts = append(insts, encode.V1Instance{Name: "_Total", Values: row(&tot, true)})
	return multi(234, cs, 2, insts)
}

// logicalDisks: the volumes of the two physical disks; HarddiskVolume1
// (a small system partition) has no I/O between the samples.
var logicalDisks = []struct {
	name            string
	freeMB, totalMB [2]uint64
	d               disk
}{
	{"HarddiskVolume1", [2]uint64{67, 67}, [2]uint64{100, 100}, disk{
		reads: [2]uint64{767, 0}, writes: [2]uint64{18, 0}, readBytes: [2]uint64{11_061_760, 0}, writeBytes: [2]uint64{76_800, 0},
		readTime: [2]uint64{60_231_000, 0}, writeTime: [2]uint64{1_149_000, 0}, idleTime: [2]uint64{2_736_380_000_000, 10_000_000},
		readTicks: [2]uint64{21_559_957, 0}, writeTicks: [2]uint64{411_289, 0}}},
	{"C:", [2]uint64{48_000, 47_999}, [2]uint64{120_000, 120_000}, physDisks[0].d},
	{"D:", [2]uint64{750_000, 750_000}, [2]uint64{953_869, 953_869}, physDisks[1].d},
}

// LogicalDisk (236): raw fractions (% Free Space), 8-byte average timers
// as in the real captures.
func logicalDiskObject(s int) encode.V1Object {
	cs := layout([]def{
		{name: 408, typ: engine.RawFraction, size: 4, detail: 100},
		{name: 408, typ: engine.RawBase, size: 4, detail: 100},
		{name: 410, typ: engine.CounterRawcount, size: 4, detail: 100},
		{name: 198, typ: engine.CounterRawcount, size: 4, scale: 1, detail: 100},
		{name: 200, typ: engine.Precision100nsTimer, size: 8, detail: 100},
		{name: 200, typ: engine.PrecisionTimestamp, size: 8, detail: 100},
		{name: 1400, typ: engine.Counter100nsQueuelenType, size: 8, scale: 2, detail: 100},
		{name: 206, typ: engine.AverageTimer, size: 8, scale: 3, detail: 200},
		{name: 206, typ: engine.AverageBase, size: 4, detail: 200},
		{name: 212, typ: engine.CounterCounter, size: 4, detail: 100},
		{name: 218, typ: engine.CounterBulkCount, size: 8, scale: -4, detail: 200},
		{name: 224, typ: engine.AverageBulk, size: 8, scale: -2, detail: 300},
		{name: 224, typ: engine.AverageBase, size: 4, detail: 300},
		{name: 1482, typ: engine.Precision100nsTimer, size: 8, detail: 200},
		{name: 1482, typ: engine.PrecisionTimestamp, size: 8, detail: 100, share: 6},
		{name: 1484, typ: engine.CounterCounter, size: 4, detail: 200},
	})
	stamp := diskStamp(s)
	var insts []encode.V1Instance
	total := make([]uint64, len(cs))
	for _, ld := range logicalDisks {
		d := ld.d
		r, w, rb, wb, rt, wt, idle, rtk, wtk, split, q := d.at(s)
		v := []uint64{ld.freeMB[s], ld.totalMB[s], ld.freeMB[s], q,
			rt + wt, stamp, rt + wt,
			rtk + wtk, r + w,
			r + w, rb + wb,
			rb + wb, r + w,
			idle, stamp, split}
		for i := range v {
			total[i] += v[i]
		}
		insts = append(insts, encode.V1Instance{Name: ld.name, Values: v})
	}
	n := uint64(len(logicalDisks))
	total[4] /= n // % Disk Time and % Idle Time: averaged in _Total
	total[13] /= n
	total[5], total[14] = stamp, stamp
	insts = append(insts, encode.V1Instance{Name: "_Total", Values: total})
	return multi(236, cs, 4, insts)
}

// process is one Process instance. Cumulative values are [value at the
// first sample, increment], or for a process that lives in one sample
// only, [value in that sample, 0].
type process struct {
	name                   string
	pid, ppid, prio        uint32
	only                   int     // 0: in both samples; 1: only in the first; 2: only in the second
	start                  float64 // seconds after boot
	user, priv             [2]uint64
	faults, ioOps, ioBytes [2]uint64
	vbytes, ws, pbytes     uint64
	wsPrivate              uint64
	threads                int
	handles                uint64
}

var processes = []process{
	{name: "Idle", pid: 0, prio: 0, start: 0, priv: [2]uint64{4_900_000_000_000, 15_000_000},
		vbytes: 65_536, ws: 8_192, pbytes: 0, wsPrivate: 8_192, threads: 2, handles: 0},
	{name: "System", pid: 4, prio: 8, start: 0, priv: [2]uint64{61_234_500_000, 600_000},
		faults: [2]uint64{123_456, 20}, ioOps: [2]uint64{98_765, 150}, ioBytes: [2]uint64{9_876_543_210, 2_457_600},
		vbytes: 3_833_856, ws: 1_638_400, pbytes: 204_800, wsPrivate: 106_496, threads: 3, handles: 2_345},
	{name: "smss", pid: 368, ppid: 4, prio: 11, start: 2, user: [2]uint64{1_250_000, 0}, priv: [2]uint64{3_125_000, 0},
		faults: [2]uint64{1_024, 0}, ioOps: [2]uint64{120, 0}, ioBytes: [2]uint64{491_520, 0},
		vbytes: 2_203_318_272, ws: 1_114_112, pbytes: 1_097_728, wsPrivate: 417_792, threads: 2, handles: 53},
	{name: "csrss", pid: 512, ppid: 500, prio: 13, start: 5, user: [2]uint64{15_625_000, 0}, priv: [2]uint64{46_875_000, 0},
		faults: [2]uint64{8_765, 0}, ioOps: [2]uint64{2_345, 0}, ioBytes: [2]uint64{9_605_120, 0},
		vbytes: 2_210_566_144, ws: 5_210_112, pbytes: 1_892_352, wsPrivate: 995_328, threads: 2, handles: 612},
	{name: "csrss", pid: 604, ppid: 588, prio: 13, start: 7, user: [2]uint64{31_250_000, 0}, priv: [2]uint64{312_500_000, 200_000},
		faults: [2]uint64{45_678, 15}, ioOps: [2]uint64{12_345, 2}, ioBytes: [2]uint64{50_565_120, 8_192},
		vbytes: 2_226_417_664, ws: 6_455_296, pbytes: 2_666_496, wsPrivate: 1_339_392, threads: 3, handles: 801},
	{name: "wininit", pid: 596, ppid: 500, prio: 13, start: 7, user: [2]uint64{1_562_500, 0}, priv: [2]uint64{7_812_500, 0},
		faults: [2]uint64{3_210, 0}, ioOps: [2]uint64{456, 0}, ioBytes: [2]uint64{1_867_776, 0},
		vbytes: 2_215_055_360, ws: 6_991_872, pbytes: 1_490_944, wsPrivate: 765_952, threads: 1, handles: 164},
	{name: "services", pid: 700, ppid: 596, prio: 9, start: 8, user: [2]uint64{78_125_000, 0}, priv: [2]uint64{234_375_000, 100_000},
		faults: [2]uint64{23_456, 5}, ioOps: [2]uint64{34_567, 3}, ioBytes: [2]uint64{141_586_432, 12_288},
		vbytes: 2_222_448_640, ws: 9_986_048, pbytes: 5_206_016, wsPrivate: 2_936_832, threads: 2, handles: 589},
	{name: "lsass", pid: 716, ppid: 596, prio: 9, start: 8, user: [2]uint64{156_250_000, 200_000}, priv: [2]uint64{312_500_000, 100_000},
		faults: [2]uint64{34_567, 12}, ioOps: [2]uint64{23_456, 20}, ioBytes: [2]uint64{96_075_776, 81_920},
		vbytes: 2_229_600_256, ws: 18_927_616, pbytes: 7_163_904, wsPrivate: 4_419_584, threads: 3, handles: 1_234},
	{name: "svchost", pid: 820, ppid: 700, prio: 8, start: 9, user: [2]uint64{93_750_000, 300_000}, priv: [2]uint64{140_625_000, 100_000},
		faults: [2]uint64{12_345, 8}, ioOps: [2]uint64{7_890, 4}, ioBytes: [2]uint64{32_317_440, 16_384},
		vbytes: 2_219_302_912, ws: 21_364_736, pbytes: 8_732_672, wsPrivate: 5_079_040, threads: 2, handles: 876},
	{name: "svchost", pid: 884, ppid: 700, prio: 8, start: 10, user: [2]uint64{1_250_000_000, 800_000}, priv: [2]uint64{2_500_000_000, 400_000},
		faults: [2]uint64{456_789, 240}, ioOps: [2]uint64{345_678, 60}, ioBytes: [2]uint64{1_415_897_088, 500_000},
		vbytes: 2_295_869_440, ws: 78_344_192, pbytes: 52_850_688, wsPrivate: 41_353_216, threads: 3, handles: 2_987},
	{name: "svchost", pid: 1020, ppid: 700, prio: 8, start: 11, user: [2]uint64{46_875_000, 0}, priv: [2]uint64{62_500_000, 0},
		faults: [2]uint64{5_432, 0}, ioOps: [2]uint64{1_234, 0}, ioBytes: [2]uint64{5_054_464, 0},
		vbytes: 2_214_395_904, ws: 7_577_600, pbytes: 2_842_624, wsPrivate: 1_130_496, threads: 2, handles: 312},
	{name: "svchost", pid: 1100, ppid: 700, prio: 8, start: 12, user: [2]uint64{156_250_000, 100_000}, priv: [2]uint64{203_125_000, 100_000},
		faults: [2]uint64{22_222, 30}, ioOps: [2]uint64{9_876, 6}, ioBytes: [2]uint64{40_451_072, 24_576},
		vbytes: 2_227_175_424, ws: 16_269_312, pbytes: 6_496_256, wsPrivate: 3_891_200, threads: 2, handles: 654},
	{name: "MpCmdRun", pid: 5124, ppid: 884, prio: 8, only: 1, start: UpTime1 - 95, user: [2]uint64{1_500_000, 0}, priv: [2]uint64{500_000, 0},
		faults: [2]uint64{1_500, 0}, ioOps: [2]uint64{300, 0}, ioBytes: [2]uint64{4_000_000, 0},
		vbytes: 2_210_353_152, ws: 9_031_680, pbytes: 3_264_512, wsPrivate: 2_117_632, threads: 1, handles: 143},
	{name: "explorer", pid: 3312, ppid: 3280, prio: 8, start: 40, user: [2]uint64{3_125_000_000, 1_500_000}, priv: [2]uint64{1_562_500_000, 500_000},
		faults: [2]uint64{234_567, 160}, ioOps: [2]uint64{56_789, 40}, ioBytes: [2]uint64{232_609_792, 400_000},
		vbytes: 2_540_568_576, ws: 98_365_440, pbytes: 41_648_128, wsPrivate: 30_306_304, threads: 3, handles: 2_345},
	{name: "notepad", pid: 6240, ppid: 3312, prio: 8, only: 2, start: UpTime1 + 0.4, user: [2]uint64{1_500_000, 0}, priv: [2]uint64{500_000, 0},
		faults: [2]uint64{1_900, 0}, ioOps: [2]uint64{120, 0}, ioBytes: [2]uint64{1_500_000, 0},
		vbytes: 2_203_996_160, ws: 13_877_248, pbytes: 2_125_824, wsPrivate: 1_470_464, threads: 1, handles: 215},
}

// processesIn returns the processes that exist in sample s, in order.
func processesIn(s int) []*process {
	var ps []*process
	for i := range processes {
		p := &processes[i]
		if p.only == 0 || p.only == s+1 {
			ps = append(ps, p)
		}
	}
	return ps
}

// val is a cumulative value at sample s.
func (p *process) val(v [2]uint64, s int) uint64 { return lin(v[0], v[1], s) }

// Process (230): duplicate names, a process only in the first sample
// (MpCmdRun) and one only in the second (notepad), _Total (sums).
func processObject(s int, procs []*process) encode.V1Object {
	cs := layout([]def{
		{name: 6, typ: engine.Timer100ns, size: 8, detail: 100},
		{name: 142, typ: engine.Timer100ns, size: 8, detail: 200},
		{name: 144, typ: engine.Timer100ns, size: 8, detail: 200},
		{name: 28, typ: engine.CounterCounter, size: 4, scale: -1, detail: 100},
		{name: 174, typ: engine.CounterLargeRawcount, size: 8, scale: -6, detail: 300},
		{name: 180, typ: engine.CounterLargeRawcount, size: 8, scale: -5, detail: 100},
		{name: 186, typ: engine.CounterLargeRawcount, size: 8, scale: -5, detail: 200},
		{name: 680, typ: engine.CounterRawcount, size: 4, detail: 200},
		{name: 682, typ: engine.CounterRawcount, size: 4, detail: 200},
		{name: 684, typ: engine.ElapsedTime, size: 8, scale: -4, detail: 200},
		{name: 784, typ: engine.CounterRawcount, size: 4, scale: -1, detail: 100},
		{name: 1410, typ: engine.CounterRawcount, size: 4, scale: -1, detail: 100},
		{name: 952, typ: engine.CounterRawcount, size: 4, detail: 200},
		{name: 1412, typ: engine.CounterBulkCount, size: 8, detail: 200},
		{name: 1420, typ: engine.CounterBulkCount, size: 8, detail: 200},
		{name: 1478, typ: engine.CounterLargeRawcount, size: 8, scale: -5, detail: 100},
	})
	var insts []encode.V1Instance
	total := make([]uint64, len(cs))
	for _, p := range procs {
		u, k := p.val(p.user, s), p.val(p.priv, s)
		v := []uint64{u + k, u, k, p.val(p.faults, s), p.vbytes, p.ws, p.pbytes, uint64(p.threads), uint64(p.prio),
			sinceBoot(p.start), uint64(p.pid), uint64(p.ppid), p.handles, p.val(p.ioOps, s), p.val(p.ioBytes, s), p.wsPrivate}
		for _, i := range []int{0, 1, 2, 3, 4, 5, 6, 7, 12, 13, 14, 15} {
			total[i] += v[i]
		}
		insts = append(insts, encode.V1Instance{Name: p.name, Values: v})
	}
	total[9] = uint64(bootTime())
	insts = append(insts, encode.V1Instance{Name: "_Total", Values: total})
	o := multi(230, cs, 0, insts)
	o.PerfTime, o.PerfFreq = objTime(s), 10_000_000
	return o
}

// thread is one Thread instance: thread k of a process.
type thread struct {
	p      *process
	k      int
	parent int // position of the parent in the Process object
}

// threadsIn returns the threads of procs, in order, without _Total.
func threadsIn(procs []*process) []thread {
	var ts []thread
	for i, p := range procs {
		for k := 0; k < p.threads; k++ {
			ts = append(ts, thread{p: p, k: k, parent: i})
		}
	}
	return ts
}

// share splits a cumulative value between a process's n threads: thread 0
// takes the remainder.
func share(v uint64, k, n int) uint64 {
	part := v / uint64(n)
	if k == 0 {
		return v - part*uint64(n-1)
	}
	return part
}

// Thread (232): child of Process (230); thread names repeat under each
// parent, and svchost/0 exists four times (svchost/0#1 …).
func threadObject(s int, threads []thread) encode.V1Object {
	cs := layout([]def{
		{name: 6, typ: engine.Timer100ns, size: 8, detail: 400},
		{name: 142, typ: engine.Timer100ns, size: 8, detail: 400},
		{name: 144, typ: engine.Timer100ns, size: 8, detail: 400},
		{name: 146, typ: engine.CounterCounter, size: 4, detail: 400},
		{name: 684, typ: engine.ElapsedTime, size: 8, scale: -4, detail: 400},
		{name: 694, typ: engine.CounterRawcount, size: 4, detail: 400},
		{name: 682, typ: engine.CounterRawcount, size: 4, detail: 400},
		{name: 706, typ: engine.CounterLargeRawcountHex, size: 8, detail: 400},
		{name: 784, typ: engine.CounterRawcount, size: 4, detail: 400},
		{name: 804, typ: engine.CounterRawcount, size: 4, detail: 400},
		{name: 46, typ: engine.CounterRawcount, size: 4, detail: 400},
		{name: 336, typ: engine.CounterRawcount, size: 4, detail: 400},
	})
	var insts []encode.V1Instance
	total := make([]uint64, len(cs))
	nProcs := 0
	for _, t := range threads {
		nProcs = max(nProcs, t.parent+1)
		p, k, n := t.p, t.k, t.p.threads
		u, kt := share(p.val(p.user, s), k, n), share(p.val(p.priv, s), k, n)
		if p.pid == 0 { // one idle thread per CPU, with that CPU's idle time
			kt = lin(cpus[k].idle[0], cpus[k].idle[1], s)
		}
		cs0 := uint64(1_000 + 37*int(p.pid) + 11*k)
		csD := uint64(5 + 3*k)
		if p.pid == 0 {
			csD = 900 // the idle threads switch most
		}
		// Kernel threads start in the kernel's address space; the address is
		// a multiple of 2^12, which float64 holds exactly.
		start := uint64(0xFFFF_F802_1A2B_3000)
		state, wait := uint64(5), uint64(6) // Waiting, UserRequest
		if p.pid > 4 {
			start = 0x0000_7FF8_1234_0000 + uint64(k)*0x1000
		}
		if p.pid == 0 {
			state, wait = 2, 0 // Running
		}
		v := []uint64{u + kt, u, kt, lin(cs0, csD, s), sinceBoot(p.start + float64(k)), uint64(p.prio) + uint64(k%2),
			uint64(p.prio), start, uint64(p.pid), uint64(p.pid) + 4*uint64(k+1), state, wait}
		for _, i := range []int{0, 1, 2, 3} {
			total[i] += v[i]
		}
		insts = append(insts, encode.V1Instance{Name: strconv.Itoa(k), ParentObjectTitleIndex: 230,
			ParentObjectInstance: uint32(t.parent), Values: v})
	}
	total[4] = uint64(bootTime())
	insts = append(insts, encode.V1Instance{Name: "_Total", ParentObjectTitleIndex: 230,
		ParentObjectInstance: uint32(nProcs), Values: total}) // Process _Total follows the processes
	o := multi(232, cs, 0, insts)
	o.PerfTime, o.PerfFreq = objTime(s), 10_000_000
	return o
}
