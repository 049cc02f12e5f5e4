// Package logtext writes the text of perfcalc's tables of counter values:
// relog's PDH-CSV and PDH-TSV (the header "(PDH-CSV 4.0) (<zone>)(<bias>)",
// quoted fields, rows of a local time stamp and values), the JSON Lines
// rows of the same tables, JSON strings, and local FILETIMEs as relog
// prints them (02/19/2013 18:50:17.844, or ISO 8601).
//
// perfcalc relog (package relog), perfcalc values (package query) and
// perfcalc watch write their text through it, so that the three agree to
// the byte. It imports only the standard library (without fmt and os) and
// perfcalc's engine, since the WebAssembly module links it.
//
// # Security
//
// The functions append to the caller's buffer and read only their
// arguments: counter paths and zone names taken from an untrusted log are
// quoted (CSV) or escaped (JSON) so that they cannot end a field or a
// string early; invalid UTF-8 comes out of AppendJSONString as U+FFFD. Any
// int64 is a valid FILETIME for AppendTime.
package logtext
