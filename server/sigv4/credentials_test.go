package sigv4

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseCredentials(t *testing.T) {
	const file = `# dynago credentials
AKID1 secret1
AKID2	secret2   210987654321   # trailing comment
   
AKID3 secret3 token=tok3
AKID4 secret4 111122223333 token=tok#4
`
	c, err := ParseCredentials(strings.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Credential{
		"AKID1": {"AKID1", "secret1", DefaultAccountID, ""},
		"AKID2": {"AKID2", "secret2", "210987654321", ""},
		"AKID3": {"AKID3", "secret3", DefaultAccountID, "tok3"},
		// '#' starts a comment anywhere, even inside a field.
		"AKID4": {"AKID4", "secret4", "111122223333", "tok"},
	}
	if c.Len() != len(want) {
		t.Fatalf("%d credentials, want %d", c.Len(), len(want))
	}
	for k, w := range want {
		got, ok := c.Lookup(k)
		if !ok || *got != w {
			t.Errorf("Lookup(%q) = %+v, %v; want %+v", k, got, ok, w)
		}
	}
	if _, ok := c.Lookup("AKID5"); ok {
		t.Error("Lookup of an absent key succeeded")
	}
}

func TestParseCredentialsErrors(t *testing.T) {
	tests := []struct{ file, err string }{
		{"AKID1\n", "line 1: want ACCESS_KEY_ID SECRET_ACCESS_KEY [ACCOUNT_ID] [token=SESSION_TOKEN], got one field"},
		{"# c\n\nAKID1 s1\nAKID1 s2\n", `line 4: access key id "AKID1" is already given on line 3`},
		{"AKID1 s1 12345\n", `line 1: account id "12345" is not twelve digits`},
		{"AKID1 s1 12345678901x\n", `line 1: account id "12345678901x" is not twelve digits`},
		{"AKID1 s1 123456789012 extra\n", `line 1: unexpected field "extra" after the account id (want token=SESSION_TOKEN)`},
		{"AKID1 s1 token=\n", "line 1: empty token="},
		{"AKID1 s1 token=a b\n", `line 1: too many fields: unexpected "b"`},
		{"A/B s1\n", `line 1: access key id "A/B" contains '/'`},
	}
	for _, tc := range tests {
		_, err := ParseCredentials(strings.NewReader(tc.file))
		if err == nil || err.Error() != tc.err {
			t.Errorf("ParseCredentials(%q) = %v, want %q", tc.file, err, tc.err)
		}
	}
}

func TestLoadCredentials(t *testing.T) {
	path := filepath.Join(t.TempDir(), "creds")
	if err := os.WriteFile(path, []byte("AKID1 s1\nbad\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := LoadCredentials(path)
	if err == nil || !strings.HasPrefix(err.Error(), path+": line 2: ") {
		t.Fatalf("LoadCredentials = %v, want the path and line 2", err)
	}
	if _, err := LoadCredentials(filepath.Join(t.TempDir(), "absent")); err == nil {
		t.Fatal("LoadCredentials of an absent file succeeded")
	}
}

func TestNewCredentials(t *testing.T) {
	c, err := NewCredentials(Credential{AccessKeyID: "A", SecretAccessKey: "s"})
	if err != nil {
		t.Fatal(err)
	}
	if cr, _ := c.Lookup("A"); cr.AccountID != DefaultAccountID {
		t.Fatalf("account %q, want the default", cr.AccountID)
	}
	if _, err := NewCredentials(Credential{AccessKeyID: "A", SecretAccessKey: "s"}, Credential{AccessKeyID: "A", SecretAccessKey: "t"}); err == nil {
		t.Fatal("duplicate key accepted")
	}
	if _, err := NewCredentials(Credential{AccessKeyID: "A"}); err == nil {
		t.Fatal("empty secret accepted")
	}
}
