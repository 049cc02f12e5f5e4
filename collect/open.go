package collect

// Open returns a Collector of this machine's live counters through the
// source of the given kind (OpenRegistry, OpenPerfLib or OpenPDH, then
// NewRegistry, NewPerfLib or NewPDH). On systems other than Windows it
// returns ErrNeedsWindows.
func Open(kind Kind, cfg Config) (*Collector, error) {
	switch kind {
	case Registry:
		src, err := OpenRegistry()
		if err != nil {
			return nil, err
		}
		return NewRegistry(src, cfg)
	case V2:
		src, err := OpenPerfLib()
		if err != nil {
			return nil, err
		}
		return NewPerfLib(src, cfg)
	case PDH:
		src, err := OpenPDH()
		if err != nil {
			return nil, err
		}
		return NewPDH(src, cfg)
	}
	_, err := ParseKind(kind.String())
	return nil, err
}
