package collect

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/perfcalc/perfcalc/engine/nametable"
)

// The files of the machine's name tables that SaveNameTables and
// Config.SaveDir write: REG_MULTI_SZ bytes as the registry returns them,
// which perfcalc's --names and --names-file read (doc/FORMATS.md §3.4).
const (
	// EnglishTableFile holds "Counter 009" (HKEY_PERFORMANCE_DATA).
	EnglishTableFile = "counter-009.multisz"
	// LocalTableFile holds the table of the system's language
	// (HKEY_PERFORMANCE_NLSTEXT "Counter": the CurrentLanguage's names,
	// "Counter 007" on a German Windows; English on an English one).
	LocalTableFile = "counter-local.multisz"
)

// SaveNameTables writes the name tables of src's machine into dir (created
// if absent): EnglishTableFile and LocalTableFile, each checked to be a
// name table first. It returns the files written. A machine without a
// table of its language (src's NameTable(true) fails) gets the English one
// alone, and localErr says why; an English table that cannot be read or
// parsed is an error, as is a file that cannot be written.
func SaveNameTables(src RegistrySource, dir string) (files []string, localErr error, err error) {
	en, err := src.NameTable(false)
	if err != nil {
		return nil, nil, errors.New("collect: the English name table (Counter 009): " + err.Error())
	}
	if _, err := nametable.Parse(en); err != nil {
		return nil, nil, errors.New("collect: the English name table (Counter 009): " + err.Error())
	}
	local, localErr := src.NameTable(true)
	if localErr == nil {
		if _, perr := nametable.Parse(local); perr != nil {
			localErr = perr
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, err
	}
	write := func(name string, b []byte) error {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return err
		}
		files = append(files, p)
		return nil
	}
	if err := write(EnglishTableFile, en); err != nil {
		return files, nil, err
	}
	if localErr != nil {
		return files, errors.New("collect: the table of the system's language (HKEY_PERFORMANCE_NLSTEXT): " + localErr.Error()), nil
	}
	if err := write(LocalTableFile, local); err != nil {
		return files, nil, err
	}
	return files, nil, nil
}
