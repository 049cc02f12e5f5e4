package relog_test

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	"github.com/perfcalc/perfcalc/engine/logtext"
	"github.com/perfcalc/perfcalc/engine/relog"
)

func ExampleConverter_Write() {
	log := exampleLog() // a small hand-made .blg: see helpers_test.go
	c, err := relog.New(bytes.NewReader(log), int64(len(log)), relog.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	var out bytes.Buffer
	if err := c.Write(&out, relog.CSV); err != nil {
		fmt.Println(err)
	}
	fmt.Print(strings.ReplaceAll(out.String(), "\r\n", "\n"))
	// Output:
	// "(PDH-CSV 4.0) (Pacific Standard Time)(480)","\\HOST\PhysicalDisk(0 C:)\Avg. Disk Queue Length","\\HOST\Processor(0)\% Processor Time","\\HOST\Processor(_Total)\% Processor Time"
	// "02/19/2013 18:50:17.844"," "," "," "
	// "02/19/2013 18:50:18.844","0.25","25","50"
	// "02/19/2013 18:50:19.844","0.25","25","50"
}

func ExampleConverter_Write_json() {
	log := exampleLog()
	opts := relog.Options{Counters: mustPaths(`\Processor(_total)\*`)}
	c, err := relog.New(bytes.NewReader(log), int64(len(log)), opts)
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := c.Write(os.Stdout, relog.JSON); err != nil {
		fmt.Println(err)
	}
	// Output:
	// {"time":"2013-02-19T18:50:17.844","values":{"\\\\HOST\\Processor(_Total)\\% Processor Time":null}}
	// {"time":"2013-02-19T18:50:18.844","values":{"\\\\HOST\\Processor(_Total)\\% Processor Time":50}}
	// {"time":"2013-02-19T18:50:19.844","values":{"\\\\HOST\\Processor(_Total)\\% Processor Time":50}}
}

func ExampleConverter_Next() {
	log := exampleLog()
	c, err := relog.New(bytes.NewReader(log), int64(len(log)), relog.Options{Every: 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	n, begin, end := c.Samples()
	fmt.Printf("%d rows from %s to %s\n", n, logtext.AppendTime(nil, begin), logtext.AppendTime(nil, end))
	for c.Next() {
		row := c.Row()
		for i, cell := range row.Cells {
			fmt.Printf("%s %s %v %v\n", logtext.AppendTime(nil, row.Time), c.Columns()[i].Path, cell.Result.Status, cell.Result.Value)
		}
	}
	fmt.Println(c.Err())
	// Output:
	// 2 rows from 02/19/2013 18:50:17.844 to 02/19/2013 18:50:19.844
	// 02/19/2013 18:50:17.844 \\HOST\PhysicalDisk(0 C:)\Avg. Disk Queue Length NewData 0
	// 02/19/2013 18:50:17.844 \\HOST\Processor(0)\% Processor Time NewData 0
	// 02/19/2013 18:50:17.844 \\HOST\Processor(_Total)\% Processor Time NewData 0
	// 02/19/2013 18:50:19.844 \\HOST\PhysicalDisk(0 C:)\Avg. Disk Queue Length Valid 0.25
	// 02/19/2013 18:50:19.844 \\HOST\Processor(0)\% Processor Time Valid 25
	// 02/19/2013 18:50:19.844 \\HOST\Processor(_Total)\% Processor Time Valid 50
	// <nil>
}

func ExampleConverter_ReadRows() {
	log := exampleLog()
	c, err := relog.New(bytes.NewReader(log), int64(len(log)), relog.Options{Counters: mustPaths(`\Processor(*)\*`)})
	if err != nil {
		fmt.Println(err)
		return
	}
	err = c.ReadRows(func(r *relog.ComputedRow) error {
		fmt.Printf("row %d at %s:", r.Index, logtext.AppendTime(nil, r.Time))
		for i, res := range r.Results {
			if r.Present[i] {
				fmt.Printf(" %s %v %v;", c.Columns()[i].Parts.Instance, res.Status, res.Value)
			}
		}
		fmt.Println()
		return nil
	})
	fmt.Println(err)
	// Output:
	// row 0 at 02/19/2013 18:50:17.844: 0 NewData 0; _Total NewData 0;
	// row 1 at 02/19/2013 18:50:18.844: 0 Valid 25; _Total Valid 50;
	// row 2 at 02/19/2013 18:50:19.844: 0 Valid 25; _Total Valid 50;
	// <nil>
}

func ExampleConverter_Statistics() {
	log := exampleLog()
	c, err := relog.New(bytes.NewReader(log), int64(len(log)), relog.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	st, err := c.Statistics()
	for i, s := range st {
		fmt.Printf("%s: count %d, skipped %d, min %v, max %v, mean %v (%v)\n", c.Columns()[i].Path, s.Count, s.Skipped, s.Min, s.Max, s.Mean, s.MeanStatus)
	}
	fmt.Println(err)
	// Output:
	// \\HOST\PhysicalDisk(0 C:)\Avg. Disk Queue Length: count 2, skipped 0, min 0.25, max 0.25, mean 0.25 (Valid)
	// \\HOST\Processor(0)\% Processor Time: count 2, skipped 0, min 25, max 25, mean 25 (Valid)
	// \\HOST\Processor(_Total)\% Processor Time: count 2, skipped 0, min 50, max 50, mean 50 (Valid)
	// <nil>
}

func ExampleParseTime() {
	for _, s := range []string{"02/19/2013 18:50:17.844", "2/19/2013 6:50:17 PM", "2013-02-19T18:50:17.8441234", "02/19/2013"} {
		ft, err := relog.ParseTime(s)
		fmt.Println(ft, string(logtext.AppendTime(nil, ft)), err)
	}
	// Output:
	// 130057734178440000 02/19/2013 18:50:17.844 <nil>
	// 130057734170000000 02/19/2013 18:50:17.000 <nil>
	// 130057734178441234 02/19/2013 18:50:17.844 <nil>
	// 130057056000000000 02/19/2013 00:00:00.000 <nil>
}

func ExampleMerge() {
	// The examples' log cut in two by time, the halves sharing a sample:
	// merged, they give the whole log's rows and values back.
	first, second := relog.HandMadeHalves()
	c, err := relog.Merge([]relog.Input{
		{R: bytes.NewReader(first), Size: int64(len(first)), Name: "first.blg"},
		{R: bytes.NewReader(second), Size: int64(len(second)), Name: "second.blg"},
	}, relog.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	var out bytes.Buffer
	if err := c.Write(&out, relog.CSV); err != nil {
		fmt.Println(err)
	}
	fmt.Print(strings.ReplaceAll(out.String(), "\r\n", "\n"))
	// Output:
	// "(PDH-CSV 4.0) (Pacific Standard Time)(480)","\\HOST\PhysicalDisk(0 C:)\Avg. Disk Queue Length","\\HOST\Processor(0)\% Processor Time","\\HOST\Processor(_Total)\% Processor Time"
	// "02/19/2013 18:50:17.844"," "," "," "
	// "02/19/2013 18:50:18.844","0.25","25","50"
	// "02/19/2013 18:50:19.844","0.25","25","50"
}
