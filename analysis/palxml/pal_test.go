package palxml

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestPALFiles loads every threshold file of ../shared/pal (but
// CounterLang.xml, which is no threshold file) with the questions'
// defaults and checks, per file, that it loads or is refused with the
// reason, and its counts (see counts).
//
// Where the figures come from: they were computed by this package (Load)
// and by countFile's regular expression, then checked by hand against the
// files and against ../shared/spec/ANALYSIS.md §1. By hand, for example:
//   - `grep -c '<THRESHOLD ' AspDotNet.xml` is 10, all literal
//     StaticThreshold calls; it inherits nothing: 10 analyses, 10
//     thresholds.
//   - QuickSystemOverview.xml: `grep -c '<THRESHOLD '` is 83; 71 are one
//     literal call; 8 compute from PhysicalMemory and evaluate (Available
//     MBytes 2, Pool Nonpaged Bytes 3 and Pool Paged Bytes 2 with switch
//     ($OS), System Cache Resident Bytes 1); 4 use the processor count
//     ($CollectionOfProcessorPercentProcessorTime.Count: Processor Queue
//     Length 2, Context Switching 2) and are listed as unsupported.
//   - Exchange2007-MBX-TechNet.xml: 2 `If ($CCR -eq $True)` /
//     `If ($MajorityClientsCached -eq $True)` thresholds whose branch makes
//     no call with the defaults (CCR, MajorityClientsCached False): the 2
//     inactive.
//   - Exchange2007-HUB.xml has 66 THRESHOLD elements (`grep -c
//     '<THRESHOLD '`), 61 of them VBScript in v1-schema analyses: refused.
//
// The totals over the own THRESHOLD elements of the 71 files are
// ANALYSIS.md's: 1,605 thresholds, 1,431 of them one literal
// StaticThreshold call. Of the 1,605: 1,472 become a Threshold (1,426
// literal, 2 with -Operator ne, 44 computed from question variables); 4
// are computed ones whose If takes no call with the defaults (ANALYSIS.md
// counts 48 computed: 44 + 4); 63 are listed as unsupported (ANALYSIS.md's
// 14 question-variable loops, 40 hand-written loops, 6 processor-count
// thresholds, 2 malformed, 1 empty); 66 are in the refused
// Exchange2007-HUB.xml (its 61 VBScript and 5 literal ones).
func TestPALFiles(t *testing.T) {
	dir := palDir(t)
	read := dirReader(dir)
	var sum counts
	tested := map[string]bool{}
	for _, tc := range []struct {
		file    string
		refused string // a part of the error, "" when the file loads
		counts
	}{
		{"ActiveDirectory.xml", "", counts{110, 92, 8, 3, 3, 0, 0, 3}},
		{"Asp.xml", "", counts{86, 93, 8, 4, 4, 0, 0, 4}},
		{"AspDotNet.xml", "", counts{10, 10, 0, 10, 10, 0, 0, 10}},
		{"BizTalkServer2006.xml", "", counts{33, 51, 1, 52, 51, 1, 0, 51}},
		{"CalculatedIops.xml", "", counts{74, 79, 4, 0, 0, 0, 0, 0}},
		{"CitrixXenApp.xml", "", counts{5, 7, 0, 7, 7, 0, 0, 7}},
		{"Custom.xml", "", counts{433, 198, 4, 0, 0, 0, 0, 0}},
		{"DotNet.xml", "", counts{4, 7, 0, 7, 7, 0, 0, 7}},
		{"DynamicsAX.xml", "", counts{88, 89, 8, 0, 0, 0, 0, 0}},
		{"DynamicsAX2012AOS.xml", "", counts{101, 99, 8, 10, 10, 0, 0, 10}},
		{"DynamicsCRM2013_BackEnd_Basic.xml", "", counts{147, 207, 8, 118, 118, 0, 0, 117}},
		{"DynamicsCRM2013_FrontEnd_Basic.xml", "", counts{162, 125, 8, 21, 21, 0, 0, 20}},
		{"DynamicsCRM2013_FullServer_Basic.xml", "", counts{228, 243, 8, 0, 0, 0, 0, 0}},
		{"EMRA.xml", "no PALVERSION", counts{0, 0, 0, 0, 0, 0, 0, 0}},
		{"Exchange.xml", "", counts{292, 137, 8, 42, 42, 0, 0, 42}},
		{"Exchange2003.xml", "", counts{195, 132, 8, 37, 37, 0, 0, 37}},
		{"Exchange2007-CAS-TechNet.xml", "", counts{165, 109, 10, 7, 5, 2, 0, 5}},
		{"Exchange2007-CAS.xml", "", counts{179, 101, 8, 0, 0, 0, 0, 0}},
		{"Exchange2007-Common-TechNet.xml", "", counts{104, 74, 18, 19, 7, 12, 0, 7}},
		{"Exchange2007-EDGE-TechNet.xml", "", counts{171, 94, 24, 26, 20, 6, 0, 20}},
		{"Exchange2007-HUB-TechNet.xml", "", counts{143, 88, 24, 20, 14, 6, 0, 14}},
		{"Exchange2007-HUB.xml", "v1 schema", counts{0, 0, 0, 66, 0, 0, 0, 5}},
		{"Exchange2007-HUBCAS-TechNet.xml", "", counts{226, 125, 21, 0, 0, 0, 0, 0}},
		{"Exchange2007-HUBCAS.xml", "", counts{215, 67, 4, 5, 5, 0, 0, 5}},
		{"Exchange2007-HUBCASMBX-TechNet.xml", "", counts{301, 133, 45, 0, 0, 0, 0, 0}},
		{"Exchange2007-HUBMBX-TechNet.xml", "", counts{218, 113, 45, 0, 0, 0, 0, 0}},
		{"Exchange2007-MBX-TechNet.xml", "", counts{179, 99, 39, 51, 28, 21, 2, 26}},
		{"Exchange2007-MBX.xml", "", counts{201, 64, 4, 5, 5, 0, 0, 5}},
		{"Exchange2007-UM-TechNet.xml", "", counts{112, 82, 18, 8, 8, 0, 0, 8}},
		{"Exchange2010.xml", "", counts{330, 141, 4, 68, 68, 0, 0, 68}},
		{"Exchange2013.xml", "", counts{145, 118, 4, 38, 38, 0, 0, 37}},
		{"Exchange2016.xml", "", counts{145, 118, 4, 38, 38, 0, 0, 37}},
		{"FS4SP.xml", "", counts{182, 133, 8, 7, 7, 0, 0, 6}},
		{"HyperV.xml", "", counts{112, 102, 8, 13, 13, 0, 0, 13}},
		{"HyperV30.xml", "", counts{137, 126, 8, 37, 37, 0, 0, 37}},
		{"ICIPThresholds.xml", "", counts{82, 89, 8, 0, 0, 0, 0, 0}},
		{"IIS.xml", "", counts{146, 104, 8, 1, 1, 0, 0, 1}},
		{"Lync2010-Edge.xml", "", counts{87, 93, 4, 14, 14, 0, 0, 14}},
		{"Lync2010-FrontEnd.xml", "", counts{114, 115, 4, 36, 36, 0, 0, 36}},
		{"Lync2010-Mediation.xml", "", counts{78, 84, 4, 5, 5, 0, 0, 5}},
		{"Lync2010-Monitoring_Archiving.xml", "", counts{79, 85, 4, 6, 6, 0, 0, 6}},
		{"Lync2010.xml", "", counts{139, 140, 14, 64, 57, 6, 1, 53}},
		{"Lync2013-Edge.xml", "", counts{89, 95, 4, 16, 16, 0, 0, 16}},
		{"Lync2013-FrontEnd.xml", "", counts{135, 133, 4, 54, 54, 0, 0, 54}},
		{"Lync2013-Mediation.xml", "", counts{78, 84, 4, 5, 5, 0, 0, 5}},
		{"MOSS_Search.xml", "", counts{80, 85, 4, 6, 6, 0, 0, 6}},
		{"OCS2007R2-Archiving.xml", "", counts{76, 83, 4, 4, 4, 0, 0, 4}},
		{"OCS2007R2-CWA.xml", "", counts{85, 103, 4, 24, 24, 0, 0, 24}},
		{"OCS2007R2-Edge.xml", "", counts{120, 162, 4, 83, 83, 0, 0, 83}},
		{"OCS2007R2-Enterprise.xml", "", counts{127, 158, 4, 79, 79, 0, 0, 79}},
		{"OCS2007R2-Mediation.xml", "", counts{74, 81, 4, 2, 2, 0, 0, 2}},
		{"OCS2007R2-Monitoring.xml", "", counts{77, 85, 4, 6, 6, 0, 0, 6}},
		{"OCS2007R2-Standard.xml", "", counts{126, 156, 4, 77, 77, 0, 0, 77}},
		{"PAL_VMwareView_PCoIP.xml", "", counts{130, 89, 8, 0, 0, 0, 0, 0}},
		{"PAL_VMwareView_VDM.xml", "", counts{144, 89, 8, 0, 0, 0, 0, 0}},
		{"PowerStates.xml", "", counts{74, 80, 4, 1, 1, 0, 0, 1}},
		{"PrintServer.xml", "", counts{9, 9, 0, 9, 9, 0, 0, 9}},
		{"ProjectServer.xml", "", counts{143, 72, 4, 0, 0, 0, 0, 0}},
		{"QuickSystemOverview.xml", "", counts{73, 79, 4, 83, 79, 4, 0, 71}},
		{"SP2013.xml", "", counts{94, 82, 4, 3, 3, 0, 0, 3}},
		{"SPS2010.xml", "", counts{166, 104, 8, 3, 3, 0, 0, 3}},
		{"SQLServer.xml", "", counts{111, 113, 6, 24, 24, 0, 0, 24}},
		{"SQLServer2008R2.xml", "", counts{176, 139, 4, 50, 50, 0, 0, 43}},
		{"SQLServer2012.xml", "", counts{215, 145, 4, 56, 56, 0, 0, 49}},
		{"SQLServer2014.xml", "", counts{217, 148, 5, 60, 59, 1, 0, 50}},
		{"SharePoint.xml", "", counts{178, 126, 8, 3, 3, 0, 0, 3}},
		{"SystemOverview.xml", "", counts{81, 89, 8, 18, 14, 4, 0, 12}},
		{"TMG2010.xml", "", counts{100, 122, 4, 44, 43, 0, 1, 43}},
		{"UAG2010.xml", "", counts{136, 168, 4, 46, 46, 0, 0, 44}},
		{"VMWare.xml", "", counts{18, 0, 0, 0, 0, 0, 0, 0}},
		{"WindowsUpdate.xml", "", counts{2, 2, 0, 2, 2, 0, 0, 2}},
		{"logrhythm-SLF.xml", "", counts{1, 2, 0, 2, 2, 0, 0, 2}},
	} {
		have, err := countFile(t, read, tc.file)
		tested[tc.file] = true
		sum.own += have.own
		sum.ownLiteral += have.ownLiteral
		sum.ownEvaluated += have.ownEvaluated
		sum.ownUnsupported += have.ownUnsupported
		sum.ownInactive += have.ownInactive
		if tc.refused != "" {
			if err == nil || !strings.Contains(err.Error(), tc.refused) || !strings.Contains(err.Error(), tc.file) {
				t.Errorf("%s: have %v, want an error naming the file and saying %q", tc.file, err, tc.refused)
			}
		} else if err != nil {
			t.Errorf("%s: %v", tc.file, err)
		}
		if have != tc.counts {
			t.Errorf("%s: have %+v\nwant %+v", tc.file, have, tc.counts)
		}
	}
	names, err := filepath.Glob(filepath.Join(dir, "*.xml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range names {
		if n := filepath.Base(p); n != "CounterLang.xml" && !tested[n] {
			t.Errorf("%s is not in the table", n)
		}
	}
	if len(tested) != 72 || sum.own != 1605 || sum.ownLiteral != 1431 || sum.ownEvaluated != 1472 || sum.ownUnsupported != 63 || sum.ownInactive != 4 {
		t.Errorf("have %d files, totals %+v; want 72 files, 1,605 thresholds, 1,431 literal, 1,472 evaluated, 63 unsupported, 4 inactive", len(tested), sum)
	}
}

// TestPALGenerated: of the 60 Generated datasources in PAL's files
// (ANALYSIS.md §1; `grep -c 'TYPE="Generated"'` over the files sums to
// 60), 47 are ratios read as a Formula (the SQL Server ratios such as page
// splits or forwarded records to batch requests, the 3 network
// utilisations of QuickSystemOverview.xml, TMG's and UAG's percentages,
// BizTalk's dehydratable orchestrations …) and 13 are listed (disk and
// memory "overwhelmed", read/write ratio, calculated IOPS, target − total
// server memory, plan re-use rate, resource pool memory), as a listing of
// datasourceOf's results over the files showed.
func TestPALGenerated(t *testing.T) {
	dir := palDir(t)
	read := dirReader(dir)
	names, err := filepath.Glob(filepath.Join(dir, "*.xml"))
	if err != nil {
		t.Fatal(err)
	}
	formulas, listed, network := 0, 0, 0
	for _, p := range names {
		b, err := read(filepath.Base(p))
		if err != nil {
			t.Fatal(err)
		}
		root, err := Parse(b)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range root.Children {
			for _, d := range a.Children {
				if typ, _ := d.Attr("TYPE"); d.Name != "DATASOURCE" || typ != "Generated" {
					continue
				}
				ds, reason := datasourceOf(d)
				if reason != "" {
					listed++
					continue
				}
				formulas++
				if strings.Contains(ds.Name, "Network Utilization") && ds.Formula.Scale == 800 && ds.Formula.PerSlice {
					network++
				}
			}
		}
	}
	if formulas != 47 || listed != 13 || network != 3 {
		t.Errorf("have %d formulas (%d network utilisations), %d listed; want 47 (3), 13", formulas, network, listed)
	}
}
