package engine

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// optionCase is a case of ../testdata/options.json, which the JS and Python
// packages' tests read too: the one options syntax, three readers.
type optionCase struct {
	Text    string `json:"text"`
	Options uint32 `json:"options"`
	Scale   *int32 `json:"scale"`
	Error   string `json:"error"` // a part of the error's text (the option, quoted)
}

// TestParseOptions checks ParseOptions against the shared cases.
func TestParseOptions(t *testing.T) {
	b, err := os.ReadFile("../testdata/options.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []optionCase
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 10 {
		t.Fatalf("%d cases", len(cases))
	}
	for _, c := range cases {
		o, err := ParseOptions(c.Text)
		if c.Error != "" {
			if err == nil || !strings.Contains(err.Error(), c.Error) || o != (OptionSet{}) {
				t.Errorf("%q: have %+v, %v; want an error with %s", c.Text, o, err, c.Error)
			}
			continue
		}
		want := OptionSet{Options: Options(c.Options)}
		if c.Scale != nil {
			want.Scale, want.HasScale = *c.Scale, true
		}
		if err != nil || o != want {
			t.Errorf("%q: have %+v, %v; want %+v", c.Text, o, err, want)
		}
	}
	if _, err := ParseOptions("nope"); err == nil || err.Error() != `unknown option "nope" (want cap100, scale, 1000 or wrap32)` {
		t.Errorf("the error's text: %v", err)
	}
}
