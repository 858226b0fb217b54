//go:build unix

package cli

import (
	"syscall"

	"github.com/dynago/dynago/internal/storage/pebblestore"
)

// filesReserved is the file descriptors kept back from client connections
// for the storage engine (Pebble's table cache, its logs, manifest and
// directory), logs and the listener.
const filesReserved = pebblestore.MaxOpenFiles + 128

// connectionsWithinFileLimit returns how many connections the process's
// open-file limit leaves room for, or 0 when that is unknown. (Go raises
// the soft limit to the hard one at start-up.)
func connectionsWithinFileLimit() int {
	var l syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l); err != nil || l.Cur > 1<<30 {
		return 0
	}
	return max(int(l.Cur)-filesReserved, 64)
}
