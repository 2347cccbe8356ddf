package nanograph

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// Every function of the library, read from the C headers at test time (the entries of the
// function table when the headers have one), is called by the binding or listed in the README's
// "Left out" section with the reason.
func TestEveryFunctionIsReachableOrLeftOut(t *testing.T) {
	headers, _ := filepath.Glob("../../include/nanograph/*.h")
	if len(headers) == 0 {
		t.Skip("the C headers are not next to this binding")
	}
	var text strings.Builder
	for _, h := range headers {
		b, err := os.ReadFile(h)
		if err != nil {
			t.Fatal(err)
		}
		text.WriteString(regexp.MustCompile(`(?s)/\*.*?\*/`).ReplaceAllString(string(b), " "))
	}
	var names []string
	if m := regexp.MustCompile(`(?s)typedef\s+struct\s+ng_api\s*\{(.*?)\}\s*ng_api_t`).FindStringSubmatch(text.String()); m != nil {
		for _, f := range regexp.MustCompile(`\(\s*\*\s*(\w+)\s*\)\s*\(`).FindAllStringSubmatch(m[1], -1) {
			names = append(names, f[1])
		}
	} else {
		for _, f := range regexp.MustCompile(`NG_API[^;(]*?\bng_(\w+)\s*\(`).FindAllStringSubmatch(text.String(), -1) {
			names = append(names, f[1])
		}
	}
	var src strings.Builder
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		if !strings.HasSuffix(f, "_test.go") {
			b, _ := os.ReadFile(f)
			src.Write(b)
		}
	}
	used := map[string]bool{}
	for _, m := range regexp.MustCompile(`C\.ng_(\w+)\(`).FindAllStringSubmatch(src.String(), -1) {
		used[m[1]] = true
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.SplitN(string(readme), "## Left out", 2)
	leftOut := map[string]bool{}
	if len(parts) == 2 {
		section := regexp.MustCompile(`\n## `).Split(parts[1], 2)[0]
		for _, m := range regexp.MustCompile("(?m)^\\|\\s*`(?:ng_)?(\\w+)`\\s*\\|").FindAllStringSubmatch(section, -1) {
			leftOut[m[1]] = true
		}
	}
	var missing, both []string
	for _, n := range names {
		if !used[n] && !leftOut[n] {
			missing = append(missing, n)
		}
		if used[n] && leftOut[n] {
			both = append(both, n)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("not called by the binding nor listed under 'Left out' in README.md: %v", missing)
	}
	if len(both) > 0 {
		t.Errorf("called by the binding but listed as left out: %v", both)
	}
	if len(names) < 100 {
		t.Errorf("only %d functions found in the headers", len(names))
	}
}
