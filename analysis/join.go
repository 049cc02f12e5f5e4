package analysis

// Join returns one set of the analyses of sets, in order (several
// --thresholds files): an analysis whose ID (when it has one) or name
// (case-insensitive) an earlier set already has is left out, as PAL's
// INHERITANCE leaves it; questions likewise by variable; Values holds each
// set's values, the first set's where two give the same variable; the
// Unsupported lists are concatenated; the name is the sets' names joined
// with "+". Nil sets are ignored. The sets are not modified, and the
// result shares no slice or map with them (the analyses themselves are
// copied shallowly: their datasources, thresholds and charts are shared).
func Join(sets ...*Set) *Set {
	out := &Set{Values: map[string]string{}}
	ids, names, vars := map[string]bool{}, map[string]bool{}, map[string]bool{}
	var setNames []string
	for _, s := range sets {
		if s == nil {
			continue
		}
		if s.Name != "" {
			setNames = append(setNames, s.Name)
		}
		for _, a := range s.Analyses {
			id, name := foldKey(a.ID), foldKey(a.Name)
			if (id != "" && ids[id]) || names[name] {
				continue
			}
			if id != "" {
				ids[id] = true
			}
			names[name] = true
			out.Analyses = append(out.Analyses, a)
		}
		for _, q := range s.Questions {
			v := foldKey(q.Var)
			if vars[v] {
				continue
			}
			vars[v] = true
			out.Questions = append(out.Questions, q)
		}
		for k, v := range s.Values {
			if _, ok := out.Values[k]; !ok {
				out.Values[k] = v
			}
		}
		out.Unsupported = append(out.Unsupported, s.Unsupported...)
	}
	for i, n := range setNames {
		if i > 0 {
			out.Name += "+"
		}
		out.Name += n
	}
	return out
}
