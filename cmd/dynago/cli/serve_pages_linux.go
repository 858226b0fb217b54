package cli

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// releaseImagePages unmaps from this process the pages of its own
// executable's read-only mappings (code, read-only data, the function
// tables), once the server is listening. Start-up runs code and reads
// tables all over the binary, and the kernel maps the neighbours of every
// page touched too, so about 22 MB of the 33 MB image stay counted in the
// resident set of an idle server though nothing reads most of them again.
//
// Nothing is freed that anyone else could use: the pages stay in the page
// cache (shared, and reclaimable whenever the system needs memory, mapped
// or not), and the next access maps the same page again for a minor fault.
// What changes is the resident set the process is charged with in ps, top
// and the like, which after this is the code and data it goes on using.
//
// Only mappings of the executable that are not writable and hold no
// private copy of any page (smaps' Anonymous 0, as it would not be after
// relocations of a dynamically linked build, or with a breakpoint a
// debugger or a uprobe wrote) are dropped, so every page that comes back
// is byte for byte the one dropped.
func releaseImagePages() {
	for _, s := range imageSpans() {
		syscall.Syscall(syscall.SYS_MADVISE, s.lo, s.hi-s.lo, syscall.MADV_DONTNEED)
	}
}

// imageSpan is an address range [lo, hi).
type imageSpan struct{ lo, hi uintptr }

// imageSpans returns the read-only private mappings of the executable
// that hold no private copy of a page, or nothing if /proc cannot say.
func imageSpans() []imageSpan {
	var st syscall.Stat_t
	if err := syscall.Stat("/proc/self/exe", &st); err != nil {
		return nil
	}
	dev := fmt.Sprintf("%02x:%02x", (st.Dev>>8)&0xfff|(st.Dev>>32)&^0xfff, st.Dev&0xff|(st.Dev>>12)&^0xff)
	ino := strconv.FormatUint(st.Ino, 10)
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return nil
	}
	defer f.Close()
	var spans []imageSpan
	var cur imageSpan
	inExe := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 5 && strings.IndexByte(fields[0], '-') > 0 && !strings.HasSuffix(fields[0], ":") {
			// A mapping's header: range perms offset dev inode [path].
			inExe = false
			perms := fields[1]
			if fields[3] != dev || fields[4] != ino || len(perms) != 4 || perms[1] != '-' || perms[3] != 'p' {
				continue
			}
			lo, hi, _ := strings.Cut(fields[0], "-")
			l, err1 := strconv.ParseUint(lo, 16, 64)
			h, err2 := strconv.ParseUint(hi, 16, 64)
			if err1 != nil || err2 != nil || h <= l {
				continue
			}
			cur, inExe = imageSpan{uintptr(l), uintptr(h)}, true
			continue
		}
		if inExe && len(fields) >= 2 && fields[0] == "Anonymous:" {
			if fields[1] == "0" {
				spans = append(spans, cur)
			}
			inExe = false
		}
	}
	if sc.Err() != nil {
		return nil
	}
	return spans
}
