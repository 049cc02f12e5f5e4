package analysis

import (
	"strconv"

	"github.com/perfcalc/perfcalc/engine/counterpath"
)

// doc/DEFAULT-ANALYSES.md's table is generated from Defaults (its test
// fails while the table is stale):
//
//go:generate go test -run ^TestDefaultsDoc$ . -args -update

// The priorities of perfcalc's own thresholds, PAL's convention: a critical
// alert replaces a warning of the same slice and instance.
const (
	WarningPriority  = 50
	CriticalPriority = 100
)

// Defaults returns perfcalc's own analyses, what perfcalc analyze runs
// without --thresholds: processor, memory, disk, network, process and
// system counters with the limits that the field's published guidance
// gives, each with its description (what the counter measures, why the
// limits, what to do), its thresholds (Warning at priority 50, Critical at
// 100), a chart whose bands are the thresholds, and its references.
// doc/DEFAULT-ANALYSES.md tables them.
//
// Every analysis names its counters by their English names, without a
// machine, so it matches any log that has them; an analysis whose counters
// a log lacks is skipped (Result.Skipped). Limits that depend on the
// machine (the processor count, the memory size) are absolute: the
// description of each says for which machine they are meant.
//
// Each analysis' Reference lists its pages as "Title <URL>" (or the title
// alone, for a counter's own description in Performance Monitor),
// separated by "; ". Each call returns a new Set that the caller may
// change.
func Defaults() *Set {
	s := &Set{Name: "perfcalc", Analyses: make([]Analysis, 0, len(defaults))}
	for i := range defaults {
		s.Analyses = append(s.Analyses, defaults[i].analysis())
	}
	return s
}

// A def is one default analysis, in the few words that differ from one to
// the next; analysis builds the model from it.
type def struct {
	id, name, category string
	// counter is the primary datasource's path (a Generated series' name
	// when formula is set).
	counter string
	exclude []string
	round   int
	// formula, when set, makes counter a Generated datasource computed
	// from the CounterLog datasources named in it.
	formula *Formula
	// op compares the statistics with warn and crit (greater or less);
	// trend tests the hourly trend only.
	op         Operator
	warn, crit float64
	trend      bool
	// unit names the values in the thresholds' names, shown multiplied by
	// scale (1 when 0): "ms" with 1000 for seconds.
	unit  string
	scale float64
	// maxLimit is the chart's top (0: the largest value).
	maxLimit float64
	// coveredBy is a counter whose analysis covers this one
	// (Analysis.CoveredBy): where a machine logs it, this analysis
	// leaves the machine out.
	coveredBy string
	// what the counter measures, why these limits (plain text: the
	// rationale of doc/DEFAULT-ANALYSES.md), what to do; HTML where not
	// said otherwise.
	what, why, todo string
	refs            []*ref
}

// A ref is a public page that a default analysis' limits come from.
type ref struct{ title, url string }

// The references (public pages, cited by title and address).
var (
	refTuning = ref{"Performance Tuning Guidelines for Windows Server (Microsoft Learn)",
		"https://learn.microsoft.com/en-us/windows-server/administration/performance-tuning/"}
	refModes = ref{"User Mode versus Privileged Mode Processor Usage (Windows Performance Guide, Microsoft TechNet)",
		"http://blogs.technet.com/b/perfguide/archive/2010/09/28/user-mode-versus-privileged-mode-processor-usage.aspx"}
	refQueueExplain = ref{"The description of System\\Processor Queue Length in Performance Monitor (Add Counters, Show description)", ""}
	refDisk         = ref{"Windows Performance Monitor Disk Counters Explained (Microsoft Learn, Ask the Core Team)",
		"https://learn.microsoft.com/en-us/archive/blogs/askcore/windows-performance-monitor-disk-counters-explained"}
	refPools = ref{"Memory Pools (Microsoft Learn, Win32 memory management)",
		"https://learn.microsoft.com/en-us/windows/win32/memory/memory-pools"}
	refPoolLimits = ref{"Pushing the Limits of Windows: Paged and Nonpaged Pool (Mark Russinovich, Microsoft TechNet)",
		"http://blogs.technet.com/b/markrussinovich/archive/2009/03/26/3211216.aspx"}
	refMemLimits = ref{"Memory Limits for Windows and Windows Server Releases (Microsoft Learn)",
		"https://learn.microsoft.com/en-us/windows/win32/memory/memory-limits-for-windows-releases"}
	refNIC = ref{"Performance tuning network adapters (Microsoft Learn)",
		"https://learn.microsoft.com/en-us/windows-server/networking/technologies/network-subsystem/net-sub-performance-tuning-nics"}
	refTCP = ref{"Known issues of TCP/IP performance (Microsoft Learn, Windows Server troubleshooting)",
		"https://learn.microsoft.com/en-us/troubleshoot/windows-server/networking/tcpip-performance-known-issues"}
	refCPU = ref{"PRF: High CPU (Individual Process) (Microsoft Tech Community, Ask the Performance Team)",
		"https://techcommunity.microsoft.com/t5/ask-the-performance-team/prf-high-cpu-individual-process/ba-p/373743"}
	refLeak = ref{"Pushing the Limits of Windows: Handles (Mark Russinovich, Microsoft TechNet)",
		"http://blogs.technet.com/markrussinovich/archive/2009/09/29/3283844.aspx"}
	refOutputQueue = ref{"The description of Network Interface\\Output Queue Length in Performance Monitor (Add Counters, Show description)", ""}
)

const (
	mb            = 1 << 20  // bytes in a megabyte as Windows counts them
	totalInstance = "_Total" // the instance that sums or averages the others
)

// defaults are perfcalc's own analyses, by category.
var defaults = []def{
	// Processor.
	{
		id: "processor-total", name: "Processor % Processor Time (_Total)", category: "Processor",
		counter: `\Processor(_Total)\% Processor Time`, round: 2,
		op: Greater, warn: 80, crit: 95, unit: "%", maxLimit: 100,
		what: "The share of time all processors together ran threads (user and kernel mode), averaged over the machine.",
		why:  "Above 80 % busy, queued threads wait measurably for a processor and response times rise steeply; above 95 % the machine has no headroom left for bursts.",
		todo: "Find the processes with the highest <code>\\Process(*)\\% Processor Time</code> in the same slices; check whether the load is expected (add processors or spread it) or a runaway process. Read the Processor Queue Length beside it.",
		refs: []*ref{&refCPU, &refTuning},
	},
	{
		id: "processor-each", name: "Processor % Processor Time (each processor)", category: "Processor",
		counter: `\Processor(*)\% Processor Time`, exclude: []string{totalInstance}, round: 2,
		op: Greater, warn: 90, crit: 98, unit: "%", maxLimit: 100,
		what: "The share of time each processor ran threads. The _Total instance is left out (its own analysis reads it).",
		why:  "A single processor near 100 % while the total stays lower points at a single-threaded bottleneck or at interrupts bound to one processor; the limits are higher than the total's because one processor peaks more often.",
		todo: "If one processor stays saturated, look for a single-threaded process or for a device whose interrupts and DPCs land on that processor (% Interrupt Time, % DPC Time); consider receive-side scaling for network adapters.",
		refs: []*ref{&refCPU, &refNIC},
	},
	{
		id: "processor-privileged", name: "Processor % Privileged Time", category: "Processor",
		counter: `\Processor(*)\% Privileged Time`, round: 2,
		op: Greater, warn: 30, crit: 50, unit: "%", maxLimit: 100,
		what: "The share of time each processor (and _Total, their average) ran in kernel mode: system calls, drivers, I/O, paging.",
		why:  "Kernel time above 30 % of a processor is the usual sign of heavy I/O, a busy or faulty driver, or paging; above 50 % the kernel takes more of the processor than applications do.",
		todo: "Read % Interrupt Time, % DPC Time and Context Switches/sec of the same slices; check disk and network activity and paging (Pages/sec); update or remove the drivers of the busy devices.",
		refs: []*ref{&refModes},
	},
	{
		id: "processor-interrupt", name: "Processor % Interrupt Time", category: "Processor",
		counter: `\Processor(*)\% Interrupt Time`, round: 2,
		op: Greater, warn: 20, crit: 40, unit: "%", maxLimit: 100,
		what: "The share of time each processor spent servicing hardware interrupts.",
		why:  "More than 20 % of a processor in interrupt service routines points at a device (network, storage) interrupting too often or a faulty driver; at 40 % the processor is mostly lost to it.",
		todo: "Identify the device (Device Manager, the interrupts' processor, a kernel trace with the Windows Performance Recorder); update its driver and firmware, enable interrupt moderation.",
		refs: []*ref{&refModes, &refNIC},
	},
	{
		id: "processor-dpc", name: "Processor % DPC Time", category: "Processor",
		counter: `\Processor(*)\% DPC Time`, round: 2,
		op: Greater, warn: 20, crit: 40, unit: "%", maxLimit: 100,
		what: "The share of time each processor spent running deferred procedure calls: the work drivers defer from their interrupts.",
		why:  "More than 20 % of a processor in DPCs points at a driver doing too much work at raised priority (often network or storage); at 40 % threads on that processor starve.",
		todo: "As for % Interrupt Time: find the driver (kernel trace), update it, spread the device's work over processors (receive-side scaling).",
		refs: []*ref{&refModes, &refNIC},
	},
	{
		id: "processor-queue", name: "System Processor Queue Length", category: "Processor",
		counter: `\System\Processor Queue Length`, round: 0,
		op: Greater, warn: 8, crit: 40, unit: "threads",
		what: "The number of threads ready to run but waiting for a processor (one queue for all processors; an instantaneous count at each sample).",
		why:  "The guidance is a sustained queue above 2 threads per processor (the counter's own description); the log does not give the processor count in a form these analyses can use, so the limits are absolute, for a 4-processor machine: 8 (2 per processor) and 40 (10 per processor). Scale them by the machine's processor count (its Processor instances).",
		todo: "Read it with % Processor Time: a long queue with busy processors means too little processor capacity; a long queue with idle processors points at lock contention or at threads of one process waking together.",
		refs: []*ref{&refQueueExplain, &refTuning},
	},
	// Memory.
	{
		id: "memory-available-mbytes", name: "Memory Available MBytes", category: "Memory",
		counter: `\Memory\Available MBytes`, round: 0,
		op: Less, warn: 500, crit: 100, unit: "MB",
		what: "The physical memory free for new allocations at once: the free, zeroed and standby lists, in megabytes.",
		why:  "Below about 500 MB the memory manager trims working sets and the standby cache shrinks, so paging rises; below 100 MB allocations wait for pages and the machine stalls. The usual relative guidance is 10 % and 5 % of the physical memory; the limits are absolute because the log does not state the memory size.",
		todo: "Find the processes whose Private Bytes and Working Set grow (the Process analyses), the kernel pools, and the file cache; add memory or reduce the load.",
		refs: []*ref{&refMemLimits, &refTuning},
	},
	{
		id: "memory-available-bytes", name: "Memory Available Bytes", category: "Memory",
		counter: `\Memory\Available Bytes`, round: 0,
		op: Less, warn: 500 * mb, crit: 100 * mb, unit: "MB", scale: 1.0 / mb,
		what:      "Available MBytes in bytes, for logs that have this counter only: a machine whose log has Available MBytes too is left to that analysis (it would alert twice).",
		coveredBy: `\Memory\Available MBytes`,
		why:       "The same limits as Available MBytes: below 500 MB working sets are trimmed and paging rises, below 100 MB allocations stall. A machine whose log has Available MBytes too is left to that analysis, which would raise the same alerts.",
		todo:      "As for Available MBytes: find what holds the memory (processes, pools, cache); add memory or reduce the load.",
		refs:      []*ref{&refMemLimits, &refTuning},
	},
	{
		id: "memory-pages", name: "Memory Pages/sec", category: "Memory",
		counter: `\Memory\Pages/sec`, round: 1,
		op: Greater, warn: 1000, crit: 2500, unit: "pages/s",
		what: "The pages read from or written to disk to resolve hard page faults, per second: paging-file and memory-mapped-file traffic together.",
		why:  "Sustained rates above 1,000 pages (4 MB) per second keep a disk busy with paging; above 2,500 the paging competes with all other I/O. On its own the counter also counts mapped-file reads, so read it with Available MBytes.",
		todo: "If Available MBytes is low in the same slices, the machine lacks memory: find the growing processes or add memory. If memory is plentiful, the paging is file I/O through mapped files (backups, antivirus scans).",
		refs: []*ref{&refTuning},
	},
	{
		id: "memory-pages-input", name: "Memory Pages Input/sec", category: "Memory",
		counter: `\Memory\Pages Input/sec`, round: 1,
		op: Greater, warn: 100, crit: 1000, unit: "pages/s",
		what: "The pages read from disk to resolve hard page faults, per second: threads wait for each of these reads.",
		why:  "Every page input stalls a thread on a disk read; beyond 100 pages per second applications are visibly slowed by paging, beyond 1,000 the machine thrashes.",
		todo: "Read Available MBytes and % Committed Bytes In Use in the same slices; find the processes whose working sets are trimmed and faulted back (Working Set, Page Faults/sec); add memory.",
		refs: []*ref{&refTuning},
	},
	{
		id: "memory-committed", name: "Memory % Committed Bytes In Use", category: "Memory",
		counter: `\Memory\% Committed Bytes In Use`, round: 2,
		op: Greater, warn: 80, crit: 90, unit: "%", maxLimit: 100,
		what: "Committed virtual memory as a share of the commit limit (physical memory plus page files).",
		why:  "At the commit limit allocations fail (out-of-memory errors, crashes); above 80 % a growing process or a page file that cannot grow is close to it, above 90 % it is imminent.",
		todo: "Find the processes with the largest and growing Private Bytes; enlarge the page file or add memory; fix the leak.",
		refs: []*ref{&refMemLimits, &refPoolLimits},
	},
	{
		id: "memory-pool-nonpaged", name: "Memory Pool Nonpaged Bytes growth", category: "Memory",
		counter: `\Memory\Pool Nonpaged Bytes`, round: 0,
		op: Greater, warn: 10 * mb, crit: 50 * mb, trend: true, unit: "MB/hour", scale: 1.0 / mb,
		what: "Kernel memory that can never be paged out, used by the kernel and drivers; tested on its hourly trend.",
		why:  "Its size limit depends on the Windows version and the memory size, so the limits are on steady growth, the sign of a driver leak: more than 10 MB per hour is a leak worth chasing, 50 MB per hour exhausts the pool within days. A trend measured on a log shorter than an hour is extrapolated: confirm it on a longer log.",
		todo: "Find the pool tag that grows (poolmon.exe, a kernel trace) and the driver that owns it; update or remove that driver.",
		refs: []*ref{&refPools, &refPoolLimits},
	},
	{
		id: "memory-pool-paged", name: "Memory Pool Paged Bytes growth", category: "Memory",
		counter: `\Memory\Pool Paged Bytes`, round: 0,
		op: Greater, warn: 10 * mb, crit: 50 * mb, trend: true, unit: "MB/hour", scale: 1.0 / mb,
		what: "Kernel memory that can be paged out (handles, registry, file-system structures); tested on its hourly trend.",
		why:  "Like the nonpaged pool its limit depends on the system, so the limits are on steady growth: more than 10 MB per hour is a leak worth chasing, 50 MB per hour exhausts the pool within days. A trend measured on a log shorter than an hour is extrapolated.",
		todo: "Check Process Handle Count growth (handles live in paged pool); find the growing pool tag (poolmon.exe) and its owner.",
		refs: []*ref{&refPools, &refPoolLimits},
	},
	{
		id: "memory-free-ptes", name: "Memory Free System Page Table Entries", category: "Memory",
		counter: `\Memory\Free System Page Table Entries`, round: 0,
		op: Less, warn: 10000, crit: 5000, unit: "PTEs",
		what: "The page table entries free for mapping kernel address space (driver images, I/O buffers, kernel stacks).",
		why:  "Below 10,000 free entries kernel mappings start to fail on 32-bit systems (I/O errors, hangs), below 5,000 failures are likely; 64-bit systems have so many that the limits only catch an exhaustion in progress.",
		todo: "On a 32-bit system, remove the /3GB boot option or move to 64-bit; look for a driver leaking mappings.",
		refs: []*ref{&refMemLimits},
	},
	// Disk.
	{
		id: "logicaldisk-read-latency", name: "LogicalDisk Avg. Disk sec/Read", category: "Disk",
		counter: `\LogicalDisk(*)\Avg. Disk sec/Read`, exclude: []string{totalInstance}, round: 4,
		op: Greater, warn: 0.020, crit: 0.050, unit: "ms", scale: 1000,
		what: "The mean time a read of each volume took, from the request to its completion, queueing included (seconds; _Total, an average that hides a slow volume, left out).",
		why:  "The common guidance: under 10 ms is good, 10 to 20 ms acceptable, above 20 ms applications wait for their reads, above 50 ms the storage is a serious bottleneck.",
		todo: "Read the volume's Disk Reads/sec and queue length in the same slices: high latency at high load means the storage is saturated (spread the I/O, faster storage); high latency at low load points at the storage path (SAN, controller, virtual host).",
		refs: []*ref{&refDisk},
	},
	{
		id: "logicaldisk-write-latency", name: "LogicalDisk Avg. Disk sec/Write", category: "Disk",
		counter: `\LogicalDisk(*)\Avg. Disk sec/Write`, exclude: []string{totalInstance}, round: 4,
		op: Greater, warn: 0.020, crit: 0.050, unit: "ms", scale: 1000,
		what: "The mean time a write to each volume took, queueing included (seconds; _Total left out).",
		why:  "As for reads: above 20 ms writers wait, above 50 ms the storage is a serious bottleneck. Writes absorbed by a controller's cache take well under 5 ms, so slow writes often mean a full or disabled write cache.",
		todo: "Read Disk Writes/sec and the queue length beside it; check the controller's write cache and the storage path.",
		refs: []*ref{&refDisk},
	},
	{
		id: "physicaldisk-read-latency", name: "PhysicalDisk Avg. Disk sec/Read", category: "Disk",
		counter: `\PhysicalDisk(*)\Avg. Disk sec/Read`, exclude: []string{totalInstance}, round: 4,
		op: Greater, warn: 0.020, crit: 0.050, unit: "ms", scale: 1000,
		what: "The mean time a read of each disk (as Windows sees it: a drive, an array or a LUN) took, queueing included (seconds; _Total left out).",
		why:  "The same guidance as for volumes: above 20 ms applications wait for their reads, above 50 ms the storage is a serious bottleneck.",
		todo: "Compare with the volumes on the disk (LogicalDisk) to find which one is read; check the load (Disk Reads/sec) and the storage path.",
		refs: []*ref{&refDisk},
	},
	{
		id: "physicaldisk-write-latency", name: "PhysicalDisk Avg. Disk sec/Write", category: "Disk",
		counter: `\PhysicalDisk(*)\Avg. Disk sec/Write`, exclude: []string{totalInstance}, round: 4,
		op: Greater, warn: 0.020, crit: 0.050, unit: "ms", scale: 1000,
		what: "The mean time a write to each disk took, queueing included (seconds; _Total left out).",
		why:  "Above 20 ms writers wait, above 50 ms the storage is a serious bottleneck.",
		todo: "Check the write load (Disk Writes/sec), the controller's write cache and the storage path.",
		refs: []*ref{&refDisk},
	},
	{
		id: "logicaldisk-current-queue", name: "LogicalDisk Current Disk Queue Length", category: "Disk",
		counter: `\LogicalDisk(*)\Current Disk Queue Length`, exclude: []string{totalInstance}, round: 0,
		op: Greater, warn: 10, crit: 30, unit: "requests",
		what: "The requests outstanding on each volume at the moment of each sample, in service and waiting (_Total left out).",
		why:  "A queue matters through the waiting it causes: 10 requests at 5 ms each make the last one wait 50 ms, the critical latency; 30 outstanding requests saturate all but large arrays and flash storage. The old rule of 2 per spindle needs the spindle count, which the log does not give.",
		todo: "Read it with the volume's Avg. Disk sec/Read and sec/Write: a long queue with low latency is a deep, healthy array; with high latency the storage is saturated.",
		refs: []*ref{&refDisk},
	},
	{
		id: "logicaldisk-avg-queue", name: "LogicalDisk Avg. Disk Queue Length", category: "Disk",
		counter: `\LogicalDisk(*)\Avg. Disk Queue Length`, exclude: []string{totalInstance}, round: 2,
		op: Greater, warn: 10, crit: 30, unit: "requests",
		what: "The mean number of requests outstanding on each volume over each sample interval (_Total left out).",
		why:  "The same limits as the current queue, on the interval's mean: 10 outstanding requests at 5 ms each reach the 50 ms critical latency.",
		todo: "Read it with the latency counters; spread the I/O or move to faster storage where both are high.",
		refs: []*ref{&refDisk},
	},
	{
		id: "physicaldisk-current-queue", name: "PhysicalDisk Current Disk Queue Length", category: "Disk",
		counter: `\PhysicalDisk(*)\Current Disk Queue Length`, exclude: []string{totalInstance}, round: 0,
		op: Greater, warn: 10, crit: 30, unit: "requests",
		what: "The requests outstanding on each disk at the moment of each sample (_Total left out).",
		why:  "10 requests at 5 ms each make the last one wait 50 ms, the critical latency; 30 outstanding requests saturate all but large arrays and flash storage.",
		todo: "Read it with the disk's latency counters.",
		refs: []*ref{&refDisk},
	},
	{
		id: "physicaldisk-avg-queue", name: "PhysicalDisk Avg. Disk Queue Length", category: "Disk",
		counter: `\PhysicalDisk(*)\Avg. Disk Queue Length`, exclude: []string{totalInstance}, round: 2,
		op: Greater, warn: 10, crit: 30, unit: "requests",
		what: "The mean number of requests outstanding on each disk over each sample interval (_Total left out).",
		why:  "10 outstanding requests at 5 ms each reach the 50 ms critical latency; 30 saturate all but large arrays and flash storage.",
		todo: "Read it with the disk's latency counters.",
		refs: []*ref{&refDisk},
	},
	{
		id: "logicaldisk-free-space", name: "LogicalDisk % Free Space", category: "Disk",
		counter: `\LogicalDisk(*)\% Free Space`, exclude: []string{totalInstance}, round: 2,
		op: Less, warn: 10, crit: 5, unit: "%", maxLimit: 100,
		what: "The unallocated share of each volume (_Total left out).",
		why:  "Below 10 % free, file systems fragment, page files and logs cannot grow and updates fail; below 5 % writes are about to fail.",
		todo: "Free space (old logs, dumps, temporary files) or extend the volume; find what grows (Free Megabytes' trend).",
		refs: []*ref{&refTuning},
	},
	{
		id: "logicaldisk-free-megabytes", name: "LogicalDisk Free Megabytes", category: "Disk",
		counter: `\LogicalDisk(*)\Free Megabytes`, exclude: []string{totalInstance}, round: 0,
		op: Less, warn: 500, crit: 100, unit: "MB",
		what: "The unallocated space of each volume in megabytes (_Total left out).",
		why:  "The percentage misleads on very large and very small volumes; below 500 MB a page file, a dump or an update no longer fits, below 100 MB writes are about to fail.",
		todo: "Free space or extend the volume.",
		refs: []*ref{&refTuning},
	},
	{
		id: "logicaldisk-idle", name: "LogicalDisk % Idle Time", category: "Disk",
		counter: `\LogicalDisk(*)\% Idle Time`, exclude: []string{totalInstance}, round: 2,
		op: Less, warn: 20, crit: 5, unit: "%",
		what: "The share of time each volume had no request outstanding (_Total left out). Unlike % Disk Time it is not distorted by overlapping requests.",
		why:  "A volume idle less than 20 % of the time is busy most of it and requests start to queue; below 5 % it is saturated.",
		todo: "Read the latency counters: a busy volume with low latency is working well; with high latency, spread or reduce the I/O.",
		refs: []*ref{&refDisk},
	},
	{
		id: "physicaldisk-idle", name: "PhysicalDisk % Idle Time", category: "Disk",
		counter: `\PhysicalDisk(*)\% Idle Time`, exclude: []string{totalInstance}, round: 2,
		op: Less, warn: 20, crit: 5, unit: "%",
		what: "The share of time each disk had no request outstanding (_Total left out).",
		why:  "A disk idle less than 20 % of the time is busy most of it and requests start to queue; below 5 % it is saturated.",
		todo: "Read the latency counters beside it.",
		refs: []*ref{&refDisk},
	},
	// Network.
	{
		id: "network-utilization", name: "Network Interface % Network Utilization", category: "Network",
		counter: `\Network Interface(*)\% Network Utilization`, round: 2,
		formula: &Formula{Left: `\Network Interface(*)\Bytes Total/sec`, Right: `\Network Interface(*)\Current Bandwidth`, Op: '/', Scale: 800},
		op:      Greater, warn: 50, crit: 80, unit: "%", maxLimit: 100,
		what: "Each adapter's traffic as a share of its link speed: Bytes Total/sec × 8 ÷ Current Bandwidth × 100 (a generated series; none where the bandwidth is 0).",
		why:  "Above 50 % of the link, queueing delays and collisions or pause frames start to show; above 80 % the link is saturated for practical purposes.",
		todo: "Find the processes or services sending the traffic; team adapters or move to a faster link; check that the adapter negotiated the expected speed (Current Bandwidth).",
		refs: []*ref{&refNIC},
	},
	{
		id: "network-output-queue", name: "Network Interface Output Queue Length", category: "Network",
		counter: `\Network Interface(*)\Output Queue Length`, round: 0,
		op: Greater, warn: 2, crit: 10, unit: "packets",
		what: "The packets waiting to be sent on each adapter.",
		why:  "The counter's own description: longer than two packets means delays. Many modern drivers always report 0, so its absence of alerts proves little.",
		todo: "Read % Network Utilization beside it; check the adapter's driver and link.",
		refs: []*ref{&refOutputQueue, &refNIC},
	},
	{
		id: "network-received-errors", name: "Network Interface Packets Received Errors", category: "Network",
		counter: `\Network Interface(*)\Packets Received Errors`, round: 0,
		op: Greater, warn: 0, crit: 1000, trend: true, unit: "errors/hour",
		what: "Received packets with errors on each adapter, a count since the adapter started; tested on its hourly trend, the errors of the log's own period.",
		why:  "A healthy link has no receive errors: any increase during the log is worth a look, more than 1,000 per hour is a faulty cable, port, duplex mismatch or driver.",
		todo: "Check the cable, the switch port's error counters and the negotiated speed and duplex; update the adapter's driver.",
		refs: []*ref{&refNIC},
	},
	{
		id: "network-outbound-discarded", name: "Network Interface Packets Outbound Discarded", category: "Network",
		counter: `\Network Interface(*)\Packets Outbound Discarded`, round: 0,
		op: Greater, warn: 0, crit: 1000, trend: true, unit: "packets/hour",
		what: "Outbound packets each adapter dropped without an error (for instance for lack of buffers), a count since the adapter started; tested on its hourly trend.",
		why:  "Discards mean the adapter or its driver could not keep up: any increase during the log is worth a look, more than 1,000 per hour loses traffic that protocols must retransmit.",
		todo: "Check % Network Utilization and the adapter's buffer settings and driver.",
		refs: []*ref{&refNIC},
	},
	{
		id: "tcpv4-retransmitted", name: "TCPv4 % Segments Retransmitted", category: "Network",
		counter: `\TCPv4\% Segments Retransmitted`, round: 2,
		formula: &Formula{Left: `\TCPv4\Segments Retransmitted/sec`, Right: `\TCPv4\Segments Sent/sec`, Op: '/', Scale: 100},
		op:      Greater, warn: 2, crit: 5, unit: "%", maxLimit: 100,
		what: "TCP segments retransmitted as a share of the segments sent over IPv4: Segments Retransmitted/sec ÷ Segments Sent/sec × 100 (a generated series; none where nothing was sent).",
		why:  "A few retransmissions are normal; above 2 % of the segments, losses slow connections noticeably (TCP halves its window at each), above 5 % throughput collapses.",
		todo: "Look for packet loss on the path: adapter errors and discards, a saturated link, a faulty switch port or a firewall dropping packets.",
		refs: []*ref{&refTCP},
	},
	{
		id: "tcpv6-retransmitted", name: "TCPv6 % Segments Retransmitted", category: "Network",
		counter: `\TCPv6\% Segments Retransmitted`, round: 2,
		formula: &Formula{Left: `\TCPv6\Segments Retransmitted/sec`, Right: `\TCPv6\Segments Sent/sec`, Op: '/', Scale: 100},
		op:      Greater, warn: 2, crit: 5, unit: "%", maxLimit: 100,
		what: "TCP segments retransmitted as a share of the segments sent over IPv6 (a generated series; none where nothing was sent).",
		why:  "Above 2 % of the segments, losses slow connections noticeably, above 5 % throughput collapses.",
		todo: "Look for packet loss on the path: adapter errors and discards, a saturated link, a faulty port or a firewall.",
		refs: []*ref{&refTCP},
	},
	{
		id: "tcpv4-connection-failures", name: "TCPv4 Connection Failures", category: "Network",
		counter: `\TCPv4\Connection Failures`, round: 0,
		op: Greater, warn: 100, crit: 1000, trend: true, unit: "failures/hour",
		what: "Connection attempts over IPv4 that failed (refused or timed out), a count since start-up; tested on its hourly trend.",
		why:  "Some failures are normal (closed ports, clients giving up); more than 100 per hour points at an unreachable service or exhausted ports, more than 1,000 per hour at a service or network outage.",
		todo: "Find which connections fail (netstat, a network trace): a service down, a firewall, ephemeral port exhaustion (Connections Established, TIME_WAIT).",
		refs: []*ref{&refTCP},
	},
	{
		id: "tcpv6-connection-failures", name: "TCPv6 Connection Failures", category: "Network",
		counter: `\TCPv6\Connection Failures`, round: 0,
		op: Greater, warn: 100, crit: 1000, trend: true, unit: "failures/hour",
		what: "Connection attempts over IPv6 that failed, a count since start-up; tested on its hourly trend.",
		why:  "More than 100 failures per hour points at an unreachable service or exhausted ports, more than 1,000 per hour at an outage.",
		todo: "Find which connections fail (netstat, a network trace).",
		refs: []*ref{&refTCP},
	},
	// Process.
	{
		id: "process-handles", name: "Process Handle Count growth", category: "Process",
		counter: `\Process(*)\Handle Count`, exclude: []string{totalInstance, "Idle"}, round: 0,
		op: Greater, warn: 500, crit: 2000, trend: true, unit: "handles/hour",
		what: "The handles (files, registry keys, events, threads …) each process holds; tested on its hourly trend (_Total and Idle left out).",
		why:  "A process that keeps gaining handles leaks them, and each handle holds kernel memory (paged pool): more than 500 per hour is a leak worth chasing, 2,000 per hour exhausts memory or the per-process limit within days. A trend measured on a log shorter than an hour is extrapolated: confirm it on a longer log.",
		todo: "Find the handle type that grows (Process Explorer, handle.exe) and report the leak to the program's vendor; restarting the process is only a workaround.",
		refs: []*ref{&refLeak},
	},
	{
		id: "process-threads", name: "Process Thread Count growth", category: "Process",
		counter: `\Process(*)\Thread Count`, exclude: []string{totalInstance, "Idle"}, round: 0,
		op: Greater, warn: 100, crit: 500, trend: true, unit: "threads/hour",
		what: "The threads of each process; tested on its hourly trend (_Total and Idle left out).",
		why:  "A process that keeps creating threads without ending them leaks them, each with its stacks and kernel memory: more than 100 per hour is worth chasing, 500 per hour exhausts memory within days. Short logs extrapolate.",
		todo: "Look at the process' threads (Process Explorer, a dump) for a thread pool that never shrinks or threads blocked forever; report it to the vendor.",
		refs: []*ref{&refLeak},
	},
	{
		id: "process-private-bytes", name: "Process Private Bytes growth", category: "Process",
		counter: `\Process(*)\Private Bytes`, exclude: []string{totalInstance, "Idle"}, round: 0,
		op: Greater, warn: 100 * mb, crit: 500 * mb, trend: true, unit: "MB/hour", scale: 1.0 / mb,
		what: "The memory each process committed for itself alone; tested on its hourly trend (_Total and Idle left out).",
		why:  "Steady growth of private memory is the signature of a memory leak: more than 100 MB per hour fills a machine's memory within a day or two, 500 MB per hour within hours. Caches also grow after a start: confirm on a longer log.",
		todo: "Take two memory dumps or heap snapshots some time apart (DebugDiag, Windows Performance Recorder heap tracing) and report the leak to the vendor; watch % Committed Bytes In Use meanwhile.",
		refs: []*ref{&refMemLimits, &refLeak},
	},
	{
		id: "process-working-set", name: "Process Working Set growth", category: "Process",
		counter: `\Process(*)\Working Set`, exclude: []string{totalInstance, "Idle"}, round: 0,
		op: Greater, warn: 100 * mb, crit: 500 * mb, trend: true, unit: "MB/hour", scale: 1.0 / mb,
		what: "The physical memory each process uses; tested on its hourly trend (_Total and Idle left out).",
		why:  "A working set growing more than 100 MB per hour takes physical memory from everything else (Available MBytes falls), 500 MB per hour within hours; with Private Bytes growing too it is a leak.",
		todo: "Compare with Private Bytes: both growing is a leak (see there); the working set alone growing is the process touching more of its memory, for instance a cache without a limit.",
		refs: []*ref{&refTuning},
	},
	// System.
	{
		id: "system-context-switches", name: "System Context Switches/sec", category: "System",
		counter: `\System\Context Switches/sec`, round: 0,
		op: Greater, warn: 20000, crit: 60000, unit: "switches/s",
		what: "How often the processors switched from one thread to another, per second, on all processors together.",
		why:  "The common guidance is 5,000 switches per second per processor as a warning and 15,000 as critical; the log does not give the processor count in a form these analyses can use, so the limits are for a 4-processor machine (20,000 and 60,000). Scale them by the machine's processor count.",
		todo: "High switching with high % Privileged Time points at lock contention, too many threads or a chatty driver; find the process with the most threads and context switches (Thread object) and the drivers' DPCs.",
		refs: []*ref{&refModes, &refTuning},
	},
}

// analysis builds the default analysis d describes.
func (d *def) analysis() Analysis {
	a := Analysis{
		ID:       d.id,
		Name:     d.name,
		Category: d.category,
		Enabled:  true,
		Primary:  d.counter,
	}
	if f := d.formula; f != nil {
		a.Datasources = append(a.Datasources,
			counterLog(f.Left, d.exclude, -1),
			counterLog(f.Right, d.exclude, -1))
		g := counterLog(d.counter, d.exclude, d.round)
		g.Kind = Generated
		f := *f
		g.Formula = &f
		a.Datasources = append(a.Datasources, g)
	} else {
		a.Datasources = append(a.Datasources, counterLog(d.counter, d.exclude, d.round))
	}
	a.Thresholds = []Threshold{
		d.threshold(Warning, WarningPriority, d.warn),
		d.threshold(Critical, CriticalPriority, d.crit),
	}
	chart := Chart{Title: d.name, Datasource: d.counter, MaxLimit: d.maxLimit}
	switch {
	case d.trend: // bands show values; these limits are on trends
	case d.op == Greater:
		chart.Bands = []Band{
			{Condition: Warning, Min: d.warn, Max: d.crit, GreaterThan: true},
			{Condition: Critical, Min: d.crit, Max: d.crit, UseMax: true, GreaterThan: true},
		}
	default:
		chart.Bands = []Band{
			{Condition: Warning, Min: d.crit, Max: d.warn},
			{Condition: Critical, Min: 0, Max: d.crit},
		}
	}
	a.Charts = []Chart{chart}
	if d.coveredBy != "" {
		p, _ := counterpath.Parse(d.coveredBy) // a constant, as counterLog's
		a.CoveredBy = []counterpath.Path{p}
	}
	a.Description = "<p>" + d.what + "</p><p>" + rationaleMark + d.why + "</p><p><b>What to do:</b> " + d.todo + "</p>"
	for i, r := range d.refs {
		if i > 0 {
			a.Reference += "; "
		}
		a.Reference += r.title
		if r.url != "" {
			a.Reference += " <" + r.url + ">"
		}
	}
	return a
}

// rationaleMark opens the description's paragraph that says why the
// limits are what they are (doc/DEFAULT-ANALYSES.md's rationale column).
const rationaleMark = "<b>Why these limits:</b> "

// counterLog is a CounterLog datasource of path, which must parse (the
// test of Defaults parses every one).
func counterLog(path string, exclude []string, round int) Datasource {
	p, _ := counterpath.Parse(path)
	return Datasource{Name: path, Kind: CounterLog, Path: p, Exclude: append([]string(nil), exclude...), Round: round}
}

// threshold is d's threshold of condition c at value v, named as a person
// reads it: "Warning: more than 80 %".
func (d *def) threshold(c Condition, priority int, v float64) Threshold {
	name := "Warning: "
	if c == Critical {
		name = "Critical: "
	}
	if d.trend {
		name += "growing "
	}
	if d.op == Greater {
		name += "more than "
	} else {
		name += "less than "
	}
	scale := d.scale
	if scale == 0 {
		scale = 1
	}
	name += number(v * scale)
	if d.unit == "%" {
		name += " %"
	} else if d.unit != "" {
		name += " " + d.unit
	}
	return Threshold{
		Name:       name,
		Condition:  c,
		Priority:   priority,
		Datasource: d.counter,
		Operator:   d.op,
		Value:      v,
		TrendOnly:  d.trend,
	}
}

// number formats v as people read it: thousands separated by commas, no
// trailing zeros.
func number(v float64) string {
	s := strconv.FormatFloat(v, 'f', -1, 64)
	neg := len(s) > 0 && s[0] == '-'
	if neg {
		s = s[1:]
	}
	whole, frac := s, ""
	for i := 0; i < len(s); i++ {
		if s[i] == '.' {
			whole, frac = s[:i], s[i:]
			break
		}
	}
	if len(whole) > 3 {
		var b []byte
		for i := 0; i < len(whole); i++ {
			if i > 0 && (len(whole)-i)%3 == 0 {
				b = append(b, ',')
			}
			b = append(b, whole[i])
		}
		whole = string(b)
	}
	if neg {
		whole = "-" + whole
	}
	return whole + frac
}
