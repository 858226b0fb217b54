package sigv4

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
)

// DefaultAccountID is the account a credential belongs to when its line
// names none: the account the engine puts in ARNs by default
// (engine.DefaultAccountID, which a test keeps equal to it; a database
// written before it was the default keeps its old account, see
// engine.Options.AccountID).
const DefaultAccountID = "852375281893"

// Credential is one access key the server accepts.
type Credential struct {
	// AccessKeyID is the key id clients put in the credential scope.
	AccessKeyID string
	// SecretAccessKey signs the requests.
	SecretAccessKey string
	// AccountID is the caller's account. The default is DefaultAccountID.
	AccountID string
	// SessionToken, when set, makes the key a temporary credential: a
	// request must carry exactly this X-Amz-Security-Token. When empty, a
	// request may carry any token or none.
	SessionToken string
}

// Credentials is a set of access keys, by key id. It is not changed after
// it is built, so any number of goroutines may read it.
type Credentials struct {
	byKey map[string]*Credential
}

// NewCredentials returns the set of the given credentials, filling an
// empty AccountID with DefaultAccountID. It fails on an empty key id or
// secret and on a key id given twice.
func NewCredentials(list ...Credential) (*Credentials, error) {
	c := &Credentials{byKey: make(map[string]*Credential, len(list))}
	for i := range list {
		cr := list[i]
		if cr.AccessKeyID == "" || cr.SecretAccessKey == "" {
			return nil, fmt.Errorf("credential %d: empty access key id or secret", i+1)
		}
		if cr.AccountID == "" {
			cr.AccountID = DefaultAccountID
		}
		if _, dup := c.byKey[cr.AccessKeyID]; dup {
			return nil, fmt.Errorf("credential %d: duplicate access key id %q", i+1, cr.AccessKeyID)
		}
		c.byKey[cr.AccessKeyID] = &cr
	}
	return c, nil
}

// Lookup returns the credential of an access key id.
func (c *Credentials) Lookup(accessKeyID string) (*Credential, bool) {
	cr, ok := c.byKey[accessKeyID]
	return cr, ok
}

// Len is the number of access keys.
func (c *Credentials) Len() int { return len(c.byKey) }

// LoadCredentials reads a credentials file; see ParseCredentials for its
// format.
func LoadCredentials(path string) (*Credentials, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("credentials: %w", err)
	}
	defer f.Close()
	c, err := ParseCredentials(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

// ParseCredentials reads credentials, one a line:
//
//	ACCESS_KEY_ID SECRET_ACCESS_KEY [ACCOUNT_ID] [token=SESSION_TOKEN]
//
// Fields are separated by spaces or tabs. '#' starts a comment, on a line
// of its own or after the fields; blank lines are ignored. ACCOUNT_ID is
// twelve digits and defaults to DefaultAccountID. A line with token= is a
// temporary credential: its requests must carry that X-Amz-Security-Token.
// Errors name the line: a line with one field, too many fields, a bad
// account id, an empty token, or a key id already given.
func ParseCredentials(r io.Reader) (*Credentials, error) {
	c := &Credentials{byKey: make(map[string]*Credential)}
	firstLine := make(map[string]int)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		cr, err := parseCredentialFields(fields)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		if first, dup := firstLine[cr.AccessKeyID]; dup {
			return nil, fmt.Errorf("line %d: access key id %q is already given on line %d", n, cr.AccessKeyID, first)
		}
		firstLine[cr.AccessKeyID] = n
		c.byKey[cr.AccessKeyID] = cr
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("credentials: %w", err)
	}
	return c, nil
}

func parseCredentialFields(fields []string) (*Credential, error) {
	if len(fields) < 2 {
		return nil, fmt.Errorf("want ACCESS_KEY_ID SECRET_ACCESS_KEY [ACCOUNT_ID] [token=SESSION_TOKEN], got one field")
	}
	cr := &Credential{AccessKeyID: fields[0], SecretAccessKey: fields[1], AccountID: DefaultAccountID}
	if strings.Contains(cr.AccessKeyID, "/") {
		// A slash would split the credential scope.
		return nil, fmt.Errorf("access key id %q contains '/'", cr.AccessKeyID)
	}
	rest := fields[2:]
	if len(rest) > 0 && !strings.HasPrefix(rest[0], "token=") {
		if !isAccountID(rest[0]) {
			return nil, fmt.Errorf("account id %q is not twelve digits", rest[0])
		}
		cr.AccountID = rest[0]
		rest = rest[1:]
	}
	if len(rest) > 0 {
		tok, ok := strings.CutPrefix(rest[0], "token=")
		if !ok {
			return nil, fmt.Errorf("unexpected field %q after the account id (want token=SESSION_TOKEN)", rest[0])
		}
		if tok == "" {
			return nil, fmt.Errorf("empty token=")
		}
		cr.SessionToken = tok
		rest = rest[1:]
	}
	if len(rest) > 0 {
		return nil, fmt.Errorf("too many fields: unexpected %q", rest[0])
	}
	return cr, nil
}

func isAccountID(s string) bool {
	if len(s) != 12 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
