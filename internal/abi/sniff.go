package abi

import "github.com/perfcalc/perfcalc/engine/detect"

// Sniff tells what data is from its bytes (sniff): KindV1, KindV2, KindBlg,
// KindNames, or 0 for none of them, as detect.Format tells them (the one
// order in which the formats are tried, shared by the module, its hosts and
// the command; a test checks that the kinds have detect's values).
func Sniff(data []byte) uint32 { return uint32(detect.Format(data)) }
