package collect

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestRunDoesNotDrift(t *testing.T) {
	c := loadV1Corpus(t)
	f := &fakeRegistry{c: c}
	col, err := NewRegistry(f, Config{Paths: mustPaths(t, `\Processor(*)\*`)})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	clk := &fakeClock{t: start}
	col.clock = clk
	const interval = time.Second
	var got []Sample
	err = col.Run(context.Background(), interval, 5, func(s *Sample) error {
		got = append(got, Sample{Index: s.Index, Time: s.Time, Missed: s.Missed, Values: cloneValues(s.Values)})
		f.n = (f.n + 1) % len(c.samples)
		// Each collection takes 0.3 s, the fourth 2.5 s: the schedule
		// stays on whole seconds and skips the ticks that passed.
		clk.t = clk.t.Add(300 * time.Millisecond)
		if s.Index == 3 {
			clk.t = clk.t.Add(2200 * time.Millisecond)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 5 {
		t.Fatalf("%d samples handed, want 5", len(got))
	}
	wantTicks := []time.Duration{1, 2, 3, 6, 7}
	for i, s := range got {
		if want := start.Add(wantTicks[i] * interval); !s.Time.Equal(want) {
			t.Errorf("sample %d at %v, want %v (start + %ds)", i, s.Time.Sub(start), want.Sub(start), wantTicks[i])
		}
		if s.Index != i+1 {
			t.Errorf("sample %d has Index %d, want %d (0 is the priming sample)", i, s.Index, i+1)
		}
		if len(s.Values) == 0 {
			t.Errorf("sample %d has no values", i)
		}
	}
	if got[3].Missed != 2 {
		t.Errorf("sample 3 missed %d ticks, want 2", got[3].Missed)
	}
}

func TestRunEndsOnCancelAndError(t *testing.T) {
	c := loadV1Corpus(t)
	col, err := NewRegistry(&fakeRegistry{c: c}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	clk := &fakeClock{t: time.Unix(0, 0), cancel: cancel, at: 3}
	col.clock = clk
	n := 0
	if err := col.Run(ctx, time.Second, 0, func(*Sample) error { n++; return nil }); err != nil {
		t.Fatalf("cancelled run: %v, want nil", err)
	}
	if n != 2 {
		t.Fatalf("%d samples before the cancellation, want 2", n)
	}
	stop := errors.New("stop")
	col.clock = &fakeClock{t: time.Unix(0, 0)}
	if err := col.Run(context.Background(), time.Second, 0, func(*Sample) error { return stop }); err != stop {
		t.Fatalf("run: %v, want the callback's error", err)
	}
	if err := col.Run(context.Background(), 0, 1, nil); err == nil {
		t.Fatal("a zero interval was accepted")
	}
}
