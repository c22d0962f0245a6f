#!/usr/bin/env bash
# The structure figures of issue 44 for one checkout of KeyRanger (run it on two checkouts to compare):
#  (a) the io.keyranger source files, and their lines, that a one-page local job, its revert and a restore run through
#      (JaCoCo's agent on the CLI's process, against the demo's legacy emulator with 100 Accounts), and a restore from
#      the database's past (restore --as-of, against a second demo on the Firestore emulator in Datastore mode: the
#      legacy emulator keeps no past);
#  (b) the package dependency table (jdeps, io.keyranger only);
#  (c) the number of classes named Job* (top-level and nested), and of those with Job anywhere in the name;
#  (d) inline fully-qualified names in main code (io.keyranger.support.InlineNames, from the checkout this script is
#      in: build its test classes first with `mvn -B -o -q -pl :keyranger test-compile`);
#  (e) the places that branch on the job's input: lines naming readsPast, readsFile, "format", Source.FILE or
#      source() == in main code (app and beam), in all and outside the input's own folder (executor/source/);
#  (f) the longest methods of the commit path (the .java files under COMMIT_PATH, default
#      src/main/java/io/keyranger/executor/cells), measured by bench/scripts/method-lengths.py of this checkout.
#
# Usage: bench/scripts/code-path-figures.sh TREE [OUT]   (TREE: the checkout to measure; OUT: default /tmp/kr-figures)
# Needs: Maven's offline repository with org.jacoco:org.jacoco.agent:0.8.13:jar:runtime and
# org.jacoco:org.jacoco.cli:0.8.13:jar:nodeps (mvn dependency:get fetches them once), the Cloud SDK's emulators (the
# legacy one and google-cloud-cli-firestore-emulator), curl, python3, jdeps. It compiles TREE's app module
# (mvn -o compile) if TREE/target/classes is missing.
set -euo pipefail

TREE=$(cd "${1:?usage: $0 TREE [OUT]}" && pwd)
OUT=${2:-/tmp/kr-figures}
HERE=$(cd "$(dirname "$0")/../.." && pwd)
M2=${M2_REPO:-$HOME/.m2/repository}
AGENT=$M2/org/jacoco/org.jacoco.agent/0.8.13/org.jacoco.agent-0.8.13-runtime.jar
JACOCO=$M2/org/jacoco/org.jacoco.cli/0.8.13/org.jacoco.cli-0.8.13-nodeps.jar
for f in "$AGENT" "$JACOCO"; do
  [ -f "$f" ] || { echo "missing $f: mvn dependency:get -Dartifact=org.jacoco:org.jacoco.agent:0.8.13:jar:runtime" \
    "and -Dartifact=org.jacoco:org.jacoco.cli:0.8.13:jar:nodeps" >&2; exit 1; }
done
rm -rf "$OUT" && mkdir -p "$OUT"

[ -d "$TREE/target/classes/io/keyranger" ] || mvn -B -o -q -f "$TREE/pom-app.xml" compile
mvn -B -o -q -f "$TREE/pom-app.xml" dependency:build-classpath -Dmdep.includeScope=runtime \
  -Dmdep.outputFile="$OUT/classpath.txt" >/dev/null
CP="$TREE/target/classes:$(cat "$OUT/classpath.txt")"
cli() { # cli NAME ARGS...: the CLI under JaCoCo's agent, its coverage in OUT/NAME.exec, its exit code in OUT/exits.txt
  local name=$1 rc=0; shift
  echo "\$ keyranger $*" >>"$OUT/commands.txt"
  java -javaagent:"$AGENT"=destfile="$OUT/$name.exec",includes='io.keyranger.*' -cp "$CP" io.keyranger.app.Main "$@" \
    >>"$OUT/commands.txt" 2>&1 || rc=$?
  [ "$rc" = 0 ] || echo "(exit $rc)" >>"$OUT/commands.txt"
  echo "$name $rc" >>"$OUT/exits.txt"
}
demo() { # demo FILE ARGS...: a headless demo (its own process group, stopped on exit), its output in FILE; ADDR: its
  # address once it is up (empty if it did not come up)
  local file=$1; shift
  setsid java -cp "$CP" io.keyranger.app.Main demo --headless --entities 100 "$@" >"$file" 2>&1 &
  DEMOS="$DEMOS $!"
  for _ in $(seq 120); do grep -q '^Use it with' "$file" 2>/dev/null && break; sleep 1; done
  ADDR=$(sed -n 's/^Use it with: .*--emulator-host \([^ )]*\).*/\1/p' "$file")
  [ -n "$ADDR" ] || { cat "$file" >&2; exit 1; }
}
DEMOS=
trap 'for d in $DEMOS; do kill -TERM -- -$d 2>/dev/null || true; done' EXIT

# the demo's emulator, 100 Accounts in the default namespace (its own process group, stopped on exit)
demo "$OUT/demo.txt"
HOST=$ADDR
C=(--emulator-host "$HOST")

# (a) one page: one shard, one worker, a page (500) larger than the kind (100), an increment
echo '{"template": "increment", "property": "balance", "amount": 1}' >"$OUT/increment.json"
cli run run "${C[@]}" --kind Account --mapper "$OUT/increment.json" --shards 1 --workers 1 --page-size 500 \
  --job-id page-1
cli revert revert page-1 "${C[@]}" --job-id revert-page-1
# a restore from the emulator's own managed export of the kind, every entity written back (--mode overwrite)
curl -sf -X POST "http://$HOST/v1/projects/demo-project:export" -H 'Content-Type: application/json' \
  -d "{\"output_url_prefix\": \"$OUT/export\", \"entity_filter\": {\"kinds\": [\"Account\"]}}" >"$OUT/export.json"
META=$(find "$OUT/export" -name '*.overall_export_metadata' | head -1)
cli restore restore "${C[@]}" --export "$META" --kind Account --mode overwrite --job-id restore-1

# a restore from the database's past, on a second demo (the Firestore emulator in Datastore mode, 100 Accounts): a
# moment is noted, every Account changed after it (the same increment, its coverage not measured), and the restore
# reads the kind as it was at that moment and writes every entity back (--mode overwrite, as the export's restore)
demo "$OUT/demo-firestore.txt" --emulator firestore
P=(--emulator-host "$ADDR")
sleep 1 # the seed's last commit is before the moment (the emulator runs on this machine's clock)
MOMENT=$(date -u +%Y-%m-%dT%H:%M:%S.%6NZ)
sleep 1
echo "\$ keyranger run ${P[*]} --kind Account --mapper $OUT/increment.json --job-id past-change-1 (not measured)" \
  >>"$OUT/commands.txt"
java -cp "$CP" io.keyranger.app.Main run "${P[@]}" --kind Account --mapper "$OUT/increment.json" \
  --job-id past-change-1 >>"$OUT/commands.txt" 2>&1 || { echo "(exit $?)" >>"$OUT/commands.txt"; exit 1; }
cli restore-as-of restore "${P[@]}" --as-of "$MOMENT" --kind Account --mode overwrite --job-id restore-past-1

for name in run revert restore restore-as-of; do
  java -jar "$JACOCO" report "$OUT/$name.exec" --classfiles "$TREE/target/classes" \
    --sourcefiles "$TREE/src/main/java" --xml "$OUT/$name.xml" >/dev/null
done
python3 - "$TREE/src/main/java" "$OUT" <<'EOF' | tee "$OUT/figures.txt"
import os, sys, xml.etree.ElementTree as ET
src, out = sys.argv[1], sys.argv[2]
print("(a) io.keyranger source files run (and their lines) in the CLI's process")
print("    any: a file with a covered line; methods: a file with a covered line in a method other than a constructor")
print("    or static initializer (picocli instantiates every command; constants load with their class);")
print("    restore-as-of: on the Firestore emulator (Datastore mode), the others on the legacy emulator")
with open(os.path.join(out, "exits.txt")) as f:
    exits = dict(l.split() for l in f if l.strip())
print("    exit codes: " + ", ".join(f"{k} {v}" for k, v in exits.items()))
for name in ("run", "revert", "restore", "restore-as-of"):
    root = ET.parse(os.path.join(out, name + ".xml")).getroot()
    any_files, run_files = {}, {}
    for pkg in root.iter("package"):
        ran = set()
        for cls in pkg.findall("class"):
            for m in cls.findall("method"):
                if m.get("name") in ("<init>", "<clinit>"):
                    continue
                line = [c for c in m.findall("counter") if c.get("type") == "LINE"]
                if line and int(line[0].get("covered")) > 0:
                    ran.add(cls.get("sourcefilename"))
        for sf in pkg.findall("sourcefile"):
            line = [c for c in sf.findall("counter") if c.get("type") == "LINE"]
            if line and int(line[0].get("covered")) > 0:
                path = os.path.join(src, pkg.get("name"), sf.get("name"))
                with open(path, encoding="utf-8") as f:
                    lines = sum(1 for _ in f)
                any_files[path] = lines
                if sf.get("name") in ran:
                    run_files[path] = lines
    front = {p: n for p, n in run_files.items() if "/io/keyranger/cli/" in p or "/io/keyranger/app/" in p}
    print(f"  {name:13} any: {len(any_files)} files, {sum(any_files.values())} lines;"
          f" methods: {len(run_files)} files, {sum(run_files.values())} lines"
          f" (of which cli/ and app/: {len(front)} files, {sum(front.values())} lines)")
    with open(os.path.join(out, name + "-files.txt"), "w") as f:
        for p in sorted(run_files):
            f.write(f"{run_files[p]:6} {os.path.relpath(p, src)}\n")
EOF

# (b) package dependencies: package -> the io.keyranger packages it uses
{
  echo "(b) package dependencies (jdeps; io.keyranger. left out)"
  jdeps -verbose:package -filter:none -e 'io\.keyranger.*' "$TREE/target/classes" 2>/dev/null | grep -v '^\S' \
    | awk '$1 != $3 {print $1, $3}' | sed 's/io\.keyranger\.//g' | sort -u \
    | awk '{a[$1] = a[$1] " " $2} END {for (k in a) print k " ->" a[k]}' | sort
} | tee -a "$OUT/figures.txt"

# (c) classes named Job*, in the three modules' main sources
{
  decl() { grep -rhoE '\b(class|interface|enum|record)\s+[A-Za-z0-9_]*Job[A-Za-z0-9_]*' \
    "$TREE"/src/main/java "$TREE"/beam/src/main/java "$TREE"/bench/src/main/java | awk '{print $2}'; }
  echo "(c) classes named Job*: $(decl | grep -c '^Job');" \
    "with Job anywhere in the name: $(decl | wc -l) ($(decl | sort | uniq -d | tr '\n' ' ')declared twice)"
} | tee -a "$OUT/figures.txt"

# (d) inline fully-qualified names in main code
# Beam's classes and libraries when TREE's beam module is compiled, so that a name an inherited member type shadows
# (DoFn.Key in KeyRangeFn) is seen as allowed, as the module's own InlineNamesTest sees it
TEST_CP="$HERE/target/test-classes:$HERE/target/classes:$(cat "$OUT/classpath.txt")"
# (offline, the module alone may not resolve: then its names are read without Beam's classes)
if [ -d "$TREE/beam/target/classes/io" ] && mvn -B -o -q -f "$TREE/beam/pom.xml" dependency:build-classpath \
    -Dmdep.includeScope=runtime -Dmdep.outputFile="$OUT/beam-classpath.txt" >/dev/null 2>&1; then
  TEST_CP="$TEST_CP:$TREE/beam/target/classes:$(cat "$OUT/beam-classpath.txt")"
fi
echo "(d) inline fully-qualified names (support/InlineNames: outside package and import lines, comments and literals)" \
  | tee -a "$OUT/figures.txt"
java -cp "$TEST_CP" io.keyranger.support.InlineNames "$TREE"/src/main/java "$TREE"/beam/src/main/java \
  "$TREE"/bench/src/main/java >"$OUT/inline-names.txt"
head -2 "$OUT/inline-names.txt" | tee -a "$OUT/figures.txt"

# (e) the places that branch on the job's input
BRANCH='readsPast|readsFile|"format"|Source.FILE|source\(\) =='
(cd "$TREE" && grep -rn -E "$BRANCH" src/main/java beam/src/main/java || true) >"$OUT/branch-places-all.txt"
# outside the input's own code (executor/source/, and job/JobInput where a tree has it), and not the server's
# ability to read the past (ServerType.readsPast), which is no job's input
grep -v -E '^src/main/java/io/keyranger/(executor/source/|job/JobInput.java)|server\(\)\.readsPast\(\)|ServerType.java' \
  "$OUT/branch-places-all.txt" >"$OUT/branch-places.txt" || true
files() { cut -d: -f1 "$1" | sort -u | wc -l; }
{
  echo "(e) places that branch on the job's input: lines of src/main/java and beam/src/main/java matching"
  echo "    grep -E '$BRANCH' (listed in OUT/branch-places-all.txt, OUT/branch-places.txt)"
  echo "  in all: $(wc -l <"$OUT/branch-places-all.txt") lines in $(files "$OUT/branch-places-all.txt") files;" \
    "outside the input's code and the server's readsPast: $(wc -l <"$OUT/branch-places.txt") lines in" \
    "$(files "$OUT/branch-places.txt") files"
} | tee -a "$OUT/figures.txt"

# (f) the longest methods of the commit path
COMMIT_PATH=${COMMIT_PATH:-src/main/java/io/keyranger/executor/cells}
python3 "$HERE/bench/scripts/method-lengths.py" "$TREE/$COMMIT_PATH" >"$OUT/method-lengths.txt"
{
  echo "(f) longest methods of the commit path, $COMMIT_PATH ($(find "$TREE/$COMMIT_PATH" -name '*.java' | wc -l)" \
    "files, $(wc -l <"$OUT/method-lengths.txt") methods"
  echo "    and constructors, all in OUT/method-lengths.txt): lines from the opening brace to the closing one"
  head -5 "$OUT/method-lengths.txt"
} | tee -a "$OUT/figures.txt"
