package palxml_test

import (
	"fmt"

	"github.com/perfcalc/perfcalc/analysis/palxml"
)

func ExampleLoad() {
	files := map[string]string{
		"thresholds/mine.xml": `<?xml version="1.0"?>
<PAL PALVERSION="2.0" NAME="Mine">
  <QUESTION QUESTIONVARNAME="PhysicalMemory" DATATYPE="string" DEFAULTVALUE="16">RAM in GB?</QUESTION>
  <ANALYSIS NAME="Memory Available MBytes" ENABLED="True" CATEGORY="Memory" ID="{1}">
    <DATASOURCE TYPE="CounterLog" NAME="\Memory\Available MBytes" EXPRESSIONPATH="\Memory\Available MBytes" COLLECTIONVARNAME="Avail" DATATYPE="integer"/>
    <THRESHOLD NAME="Less than 10% of RAM" CONDITION="Warning" PRIORITY="50">
      <CODE><![CDATA[$Ten = $([Int] $PhysicalMemory * 1024) * 0.10
StaticThreshold -CollectionOfCounterInstances $Avail -Operator 'lt' -Threshold $Ten]]></CODE>
    </THRESHOLD>
  </ANALYSIS>
</PAL>`,
	}
	read := func(name string) ([]byte, error) { return []byte(files[name]), nil }
	set, err := palxml.Load("thresholds/mine.xml", read, map[string]string{"PhysicalMemory": "8"})
	if err != nil {
		fmt.Println(err)
		return
	}
	th := set.Analyses[0].Thresholds[0]
	fmt.Println(set.Name, "|", th.Name, "|", th.Datasource, th.Value)
	// Output: Mine | Less than 10% of RAM | \Memory\Available MBytes 819.2
}
