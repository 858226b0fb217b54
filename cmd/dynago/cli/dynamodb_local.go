package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// DynamoDB Local is started as
//
//	java -Djava.library.path=./DynamoDBLocal_lib -jar DynamoDBLocal.jar -sharedDb -dbPath ./data -port 8000
//
// and dynago takes the same flags, after "dynago" alone or after "dynago
// serve": "dynago -sharedDb -dbPath ./data -port 8000". The flags and
// their meaning are those of DynamoDB Local's usage notes:
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/DynamoDBLocal.UsageNotes.html

// localConfig holds the flags only DynamoDB Local has.
type localConfig struct {
	// bare is set when dynago was started with flags and no verb, as
	// DynamoDB Local's jar is.
	bare             bool
	dbPath           string
	inMemory         bool
	sharedDb         bool
	delayTransient   bool
	optimizeDb       bool
	disableTelemetry bool
}

// localTransientDelay is what -delayTransientStatuses holds tables and
// indexes CREATING, UPDATING or DELETING for. DynamoDB Local does not
// say how long it holds them; a second is long enough for code that
// waits on DescribeTable to meet each status, and short enough for tests.
const localTransientDelay = time.Second

// Namespaces (--namespace).
const (
	namespaceShared        = "shared"
	namespaceAccountRegion = "account-region"
)

// defaultMaxNamespaces bounds the databases --namespace account-region
// opens: each is a storage engine with its own files and memory.
const defaultMaxNamespaces = 32

// localFlags declares DynamoDB Local's flags, and --namespace, on serve's
// flag set. -port and -cors are serve's own flags, with the same meaning.
func localFlags(fs *flagSet, c *serveConfig) {
	l := &c.local
	fs.StringVar(&c.namespace, "namespace", "", "whose tables a request sees: \"shared\" (every client sees the same tables)\n"+
		"or \"account-region\" (each access key and region its own tables, streams, TTL\n"+
		"and tags, as DynamoDB Local keeps them without -sharedDb; ARNs carry the\n"+
		"signing region and an account id derived from the key). Default: shared, or\n"+
		"account-region when DynamoDB Local's flags are used without -sharedDb")
	fs.IntVar(&c.maxNamespaces, "max-namespaces", defaultMaxNamespaces, "with --namespace account-region, the most access key and region pairs\n"+
		"served; requests of a further pair get LimitExceededException")
	fs.StringVar(&l.dbPath, "dbPath", "", "DynamoDB Local's name for --data-dir")
	fs.BoolVar(&l.inMemory, "inMemory", false, "DynamoDB Local's name for --in-memory")
	fs.BoolVar(&l.sharedDb, "sharedDb", false, "DynamoDB Local's: one set of tables for every access key and region\n"+
		"(--namespace shared)")
	fs.BoolVar(&l.delayTransient, "delayTransientStatuses", false, "DynamoDB Local's: tables and indexes stay CREATING, UPDATING or\n"+
		"DELETING for a moment, as on DynamoDB (--transient-delay "+localTransientDelay.String()+")")
	fs.BoolVar(&l.optimizeDb, "optimizeDbBeforeStartup", false, "DynamoDB Local's: accepted and ignored, as dynago's storage needs no\n"+
		"optimizing at startup (it compacts in the background)")
	fs.BoolVar(&l.disableTelemetry, "disableTelemetry", false, "DynamoDB Local's: accepted and ignored (dynago sends no telemetry)")
}

// resolveLocal maps DynamoDB Local's flags onto dynago's and settles the
// namespace, once the flags are parsed.
func (c *serveConfig) resolveLocal(fs *flagSet) error {
	l := &c.local
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	localStyle := l.bare
	for _, name := range []string{"dbPath", "inMemory", "sharedDb", "delayTransientStatuses", "optimizeDbBeforeStartup", "disableTelemetry"} {
		localStyle = localStyle || set[name]
	}
	if set["dbPath"] {
		if set["data-dir"] && c.dataDir != l.dbPath {
			return errors.New("-dbPath and --data-dir name different directories: give one")
		}
		c.dataDir = l.dbPath
	}
	if l.inMemory {
		c.inMemory = true
	}
	if set["dbPath"] && c.inMemory {
		// DynamoDB Local refuses the pair too.
		return errors.New("-dbPath and -inMemory: choose one")
	}
	if l.delayTransient && !set["transient-delay"] {
		c.transientDelay = localTransientDelay
	}
	switch c.namespace {
	case "":
		c.namespace = namespaceShared
		if localStyle && !l.sharedDb {
			c.namespace = namespaceAccountRegion
		}
	case namespaceShared, namespaceAccountRegion:
	default:
		return fmt.Errorf("--namespace: %q is neither %s nor %s", c.namespace, namespaceShared, namespaceAccountRegion)
	}
	if l.sharedDb && c.namespace != namespaceShared {
		return errors.New("-sharedDb and --namespace account-region: choose one")
	}
	if c.maxNamespaces < 1 {
		return fmt.Errorf("--max-namespaces: %d is not a positive number", c.maxNamespaces)
	}
	return nil
}

// bareServe reports whether args, given with no verb, start the server
// the way DynamoDB Local's jar is started: they begin with one of serve's
// flags ("dynago -sharedDb -port 8000").
func bareServe(env *Env, args []string) bool {
	if len(args) == 0 || !strings.HasPrefix(args[0], "-") || helpAsked(args[:1]) {
		return false
	}
	name := strings.TrimLeft(args[0], "-")
	name, _, _ = strings.Cut(name, "=")
	var c serveConfig
	return name != "" && serveFlags(env, &c).Lookup(name) != nil
}

// findVerb returns the verb args name and the arguments left for it:
// args[0] when it is a verb, "version" for --version, and serve for
// DynamoDB Local's way of starting (its flags alone, or after its jar's
// java options).
func findVerb(env *Env, args []string) (verb, []string, bool) {
	switch args[0] {
	case "--version", "-version":
		v, ok := verbs["version"]
		return v, args[1:], ok
	}
	if v, ok := verbs[args[0]]; ok {
		return v, args[1:], true
	}
	bare := verb{name: "serve", run: func(env *Env, args []string) error { return runServeArgs(env, args, true) }}
	if rest, ok := javaLaunch(args); ok {
		return bare, rest, true
	}
	if bareServe(env, args) {
		return bare, args, true
	}
	return verb{}, nil, false
}

// DynamoDB Local keeps its tables in SQLite files in -dbPath: one named
// shared-local-instance.db with -sharedDb, else one per access key and
// region, named myaccesskeyid_region.db, whose access key has only
// letters and digits (DynamoDB Local's usage notes, above).
const localSharedFile = "shared-local-instance.db"

var localAccountFile = regexp.MustCompile(`^[A-Za-z0-9]+_[A-Za-z0-9-]+\.db$`)

// dynamoDBLocalFiles returns the names of DynamoDB Local's database files
// in dir, sorted; none when dir holds none or cannot be read.
func dynamoDBLocalFiles(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var found []string
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		if n := e.Name(); n == localSharedFile || localAccountFile.MatchString(n) {
			found = append(found, n)
		}
	}
	return found
}

// warnDynamoDBLocalFiles says, when the data directory holds DynamoDB
// Local's files, that dynago does not read them, so that pointing -dbPath
// at DynamoDB Local's folder does not look like a database that lost its
// tables. It says it as a log warning and, for whoever reads a JSON log
// through a program, in plain words on stderr.
func warnDynamoDBLocalFiles(stderr io.Writer, log *slog.Logger, dir string) {
	found := dynamoDBLocalFiles(dir)
	if len(found) == 0 {
		return
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = dir
	}
	log.Warn("the data directory holds DynamoDB Local's SQLite files, which dynago does not read: their tables are not served",
		"files", strings.Join(found, ","), "dir", abs, "dynago_data", abs)
	fmt.Fprintf(stderr, "dynago: %s holds DynamoDB Local's database files (%s). dynago does not read them: "+
		"their tables are not served, and this server starts with the tables of its own data, which it keeps in "+
		"its own format in the same directory, beside them. To move a table over, serve these files with "+
		"DynamoDB Local and copy it through the API: dynago dump TABLE --dir DIR --endpoint-url <DynamoDB Local's URL>, "+
		"create the table here, then dynago load TABLE --dir DIR.\n", abs, strings.Join(found, ", "))
}

// javaLaunch reports whether args start as the java command line of
// DynamoDB Local's jar does after "java": JVM options (-Xmx256m,
// -Djava.library.path=./DynamoDBLocal_lib), then "-jar DynamoDBLocal.jar",
// as the commands of DynamoDB Local's container image are written
// ("-jar DynamoDBLocal.jar -sharedDb -dbPath ./data" in AWS's docker
// compose example). It returns the arguments after the jar, DynamoDB
// Local's own flags, which dynago then serves with.
func javaLaunch(args []string) ([]string, bool) {
	for i, a := range args {
		switch {
		case a == "-jar":
			if i+1 < len(args) && (args[i+1] == "DynamoDBLocal.jar" || strings.HasSuffix(args[i+1], "/DynamoDBLocal.jar")) {
				return args[i+2:], true
			}
			return nil, false
		case strings.HasPrefix(a, "-X") || strings.HasPrefix(a, "-D"):
			// A JVM option: heap size, system property.
		default:
			return nil, false
		}
	}
	return nil, false
}
