package cli

import (
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v2"
)

// composeFile is what the examples' compose files may hold; parsing is
// strict, so a key the test does not know fails it.
type composeFile struct {
	Services map[string]composeService
	Volumes  map[string]any
}

type composeService struct {
	Image       string
	Command     []string
	Ports       []string
	Volumes     []string
	Environment map[string]string
	DependsOn   map[string]struct{ Condition string } `yaml:"depends_on"`
	Healthcheck struct {
		Test              []string
		Interval, Timeout string
		Retries           int
	}
}

// composeVariable is a variable with a default, ${NAME:-default}, as the
// files use for the image.
var composeVariable = regexp.MustCompile(`\$\{[A-Z_]+:-([^}]*)\}`)

// TestComposeExamples checks examples/compose: docker compose's own check
// when it runs on the machine, and in any case the files parsed: their
// services, images, ports, volumes and commands, every dynago command
// parsed by serve's own flag parser, and the PostgreSQL URL naming the
// database service, user and password the file gives PostgreSQL.
func TestComposeExamples(t *testing.T) {
	dir := "../../../examples/compose"
	containerfile, err := os.ReadFile("../../../Containerfile")
	if err != nil {
		t.Fatal(err)
	}
	// The image's volume, where the compose files mount theirs.
	if !strings.Contains(string(containerfile), `VOLUME ["/data"]`) {
		t.Fatalf("Containerfile declares no VOLUME [\"/data\"], which the compose files mount")
	}
	dynagoImage := "dynago:latest"
	postgresURL := func(f composeFile) string {
		env := f.Services["postgres"].Environment
		return (&url.URL{Scheme: "postgres", User: url.UserPassword(env["POSTGRES_USER"], env["POSTGRES_PASSWORD"]),
			Host: "postgres:5432", Path: "/" + env["POSTGRES_DB"], RawQuery: "sslmode=disable"}).String()
	}
	for _, tc := range []struct {
		file string
		// services maps each service to its image and published ports.
		services map[string][2]string
		// volumes are the named volumes, each mounted somewhere.
		volumes []string
		// store is the --store each dynago service must give ("" none).
		store func(composeFile) string
	}{
		{
			file:     "compose.yaml",
			services: map[string][2]string{"dynago": {dynagoImage, "8000:8000"}},
			volumes:  []string{"dynago-data"},
			store:    func(composeFile) string { return "" },
		},
		{
			file: "compose-postgres.yaml",
			services: map[string][2]string{
				"postgres": {"postgres:15", ""},
				"dynago-1": {dynagoImage, "8001:8000"},
				"dynago-2": {dynagoImage, "8002:8000"},
				"dynago-3": {dynagoImage, "8003:8000"},
			},
			volumes: []string{"postgres-data"},
			store:   postgresURL,
		},
	} {
		t.Run(tc.file, func(t *testing.T) {
			path := filepath.Join(dir, tc.file)
			if dockerCompose() {
				cmd := exec.Command("docker", "compose", "-f", path, "config", "--quiet")
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Errorf("docker compose config: %v\n%s", err, out)
				}
			} else {
				t.Logf("docker compose does not run here: checking %s by parsing it", tc.file)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			data = composeVariable.ReplaceAll(data, []byte("$1"))
			var f composeFile
			if err := yaml.UnmarshalStrict(data, &f); err != nil {
				t.Fatalf("%s: %v", tc.file, err)
			}
			var names []string
			for name := range f.Services {
				names = append(names, name)
			}
			slices.Sort(names)
			var want []string
			for name := range tc.services {
				want = append(want, name)
			}
			slices.Sort(want)
			if !slices.Equal(names, want) {
				t.Fatalf("services %q; want %q", names, want)
			}
			mounted := map[string]bool{}
			for name, s := range f.Services {
				if s.Image != tc.services[name][0] {
					t.Errorf("%s: image %q; want %q", name, s.Image, tc.services[name][0])
				}
				var ports []string
				if p := tc.services[name][1]; p != "" {
					ports = []string{p}
				}
				if !slices.Equal(s.Ports, ports) {
					t.Errorf("%s: ports %q; want %q", name, s.Ports, ports)
				}
				for _, v := range s.Volumes {
					source, target, _ := strings.Cut(v, ":")
					if _, ok := f.Volumes[source]; !ok {
						t.Errorf("%s mounts %q, not a named volume of the file", name, v)
					}
					mounted[source] = true
					if s.Image == dynagoImage && target != "/data" {
						t.Errorf("%s mounts %q; the image's volume is /data", name, v)
					}
				}
				for dep, d := range s.DependsOn {
					if _, ok := f.Services[dep]; !ok || d.Condition != "service_healthy" || len(f.Services[dep].Healthcheck.Test) == 0 {
						t.Errorf("%s depends on %s (%q), which is not a service with a health check", name, dep, d.Condition)
					}
				}
				if s.Image != dynagoImage {
					continue
				}
				// The command as the image's entry point gets it: a verb,
				// then serve's flags, parsed by serve's own parser.
				if len(s.Command) == 0 || s.Command[0] != "serve" {
					t.Fatalf("%s: command %q does not start with the verb serve", name, s.Command)
				}
				var c serveConfig
				var stderr strings.Builder
				env := &Env{Stdout: io.Discard, Stderr: &stderr}
				fs := serveFlags(env, &c)
				if err := parseFlags(fs, s.Command[1:]); err != nil {
					msg, _, _ := strings.Cut(stderr.String(), "\n")
					t.Fatalf("%s: dynago serve %q: %v: %s", name, s.Command[1:], err, msg)
				}
				if err := c.resolveLocal(fs); err != nil {
					t.Fatalf("%s: dynago serve %q: %v", name, s.Command[1:], err)
				}
				if c.host != "0.0.0.0" || c.port != 8000 {
					t.Errorf("%s: serves on %s:%d; want 0.0.0.0:8000, the port published", name, c.host, c.port)
				}
				if want := tc.store(f); c.store != want {
					t.Errorf("%s: --store %q; want %q", name, c.store, want)
				}
			}
			for _, v := range tc.volumes {
				if _, ok := f.Volumes[v]; !ok || !mounted[v] {
					t.Errorf("volume %s: declared %v, mounted %v; want both", v, ok, mounted[v])
				}
			}
		})
	}
}

// dockerCompose reports whether "docker compose" runs here.
func dockerCompose() bool {
	if _, err := exec.LookPath("docker"); err != nil {
		return false
	}
	return exec.Command("docker", "compose", "version").Run() == nil
}
