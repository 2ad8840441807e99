#!/usr/bin/env bash
# Everything a GPU lease needs, as one command (issue 32; training/README.md, "The GPU lease").
#
#   bash training/lease.sh --pack [--init CHECKPOINT] [--debian SNAPSHOT] [--shards DIR]
#                                                      here: what must travel, into runs/lease-carry/,
#                                                      and the size of what travels checked (with
#                                                      --init, the weights to start from as bf16 in
#                                                      runs/lease-carry/init.pt; with --debian, the
#                                                      snapshot of Debian's programs that a recipe
#                                                      with debian_share reads; with --shards, the
#                                                      done chunks of training/ahead.py, as many as
#                                                      fit, which the run trains on beside its live
#                                                      workers; give --pack first)
#   bash training/lease.sh [--minutes M] [--out DIR]   on the device machine (Python >= 3.12, CUDA torch):
#                                                      train on live data for M minutes (default 8) in
#                                                      all, bf16 weights in parts + manifest.json into
#                                                      DIR (default $OUT), the log in DIR/lease.log
#   bash training/lease.sh --rehearse OUT [--minutes M]
#                                                      the same path here on the CPU with a tiny model
#                                                      (data workers under Python >= 3.12, e.g. pyenv's;
#                                                      training on Debian's torch), default 4 minutes
#   bash training/lease.sh --slim | --unslim           before a lease that carries shards: take the shipped
#                                                      ONNX files (49 MiB, not needed there: the run starts
#                                                      from init.pt) out of git's index so that they stay
#                                                      behind, and put them back after (nothing is deleted)
#   bash training/lease.sh --import OUT MODEL_DIR      parts -> checkpoint -> ONNX -> int8 and q4 in
#     [--config FILE]                                  MODEL_DIR, then one `ndb debug` on it (--config: the
#                                                      lease's config, which config.json's ndb_provenance names)
#
# Options of a training run (device or rehearsal): --config FILE, --init CHECKPOINT|LEASE_OUT,
# --seed N, --workers N; anything after `--` goes to `python3 -m training.lease.run`.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CALLER="$PWD"  # paths given on the command line are the caller's
cd "$ROOT"
CARRY="runs/lease-carry"
TOKENIZER="public/models/ndb-cpu-6m"

die() { echo "lease.sh: $*" >&2; exit 2; }

# A Python >= 3.12 for the rehearsal's data workers: $NDB_WORKER_PYTHON, else pyenv's 3.12 (the
# device's version), else any python3.1x >= 3.12 on the PATH.
worker_python() {
  local c
  for c in "${NDB_WORKER_PYTHON:-}" $(ls -d "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.12*/bin/python 2>/dev/null | sort -rV) \
           python3.12 python3.13 python3.14 $(ls -d "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.1[3-9]*/bin/python 2>/dev/null | sort -V); do
    [ -n "$c" ] || continue
    command -v "$c" >/dev/null 2>&1 || continue
    if "$c" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else 1)' 2>/dev/null; then
      command -v "$c"
      return 0
    fi
  done
  return 1
}

travel_size() {
  # what a `run` call sends: tracked and untracked-not-ignored files, plus the carried folder
  { git ls-files -z --cached --others --exclude-standard; [ -d "$CARRY" ] && find "$CARRY" -type f -print0; } |
    xargs -0 stat -c %s 2>/dev/null | awk '{s += $1} END {printf "%.1f", s / 1048576}'
}

pack() {
  local corpus="${NDB_CORPUS:-$ROOT/../shared/corpus}" zip="$ROOT/node_modules/pyodide/python_stdlib.zip"
  [ -d "$corpus" ] || die "no corpus at $corpus (set NDB_CORPUS)"
  [ -f "$zip" ] || die "no $zip: run npm install first"
  rm -rf "$CARRY"
  mkdir -p "$CARRY/corpus"
  cp "$corpus"/*.tar.gz "$CARRY/corpus/"
  cp "$zip" "$CARRY/python_stdlib.zip"
  # the corpus extracted once, here, by a Python of the lease's version: its workers read it beside
  # the archives (0.1 s) instead of each extracting it (52-104 s of every worker in the real leases)
  local wpy
  if wpy="$(worker_python)"; then
    PYTHONHASHSEED=0 NDB_CORPUS="$CARRY/corpus" "$wpy" -W ignore -m training.data.corpus --write-extraction "$CARRY/corpus" ||
      die "could not extract the corpus with $wpy"
  else
    echo "lease.sh: warning: no Python >= 3.12 here to extract the corpus: each lease worker extracts it itself" >&2
  fi
  # Debian's programs (CPython's tests, the docs' examples) as a snapshot: the device machine has
  # not the packages; a recipe with debian_share reads it there (train(), below)
  if [ -n "${pack_debian:-}" ]; then
    [ -f "$pack_debian" ] || die "no Debian snapshot at $pack_debian (python3 -m training.data.debian --write FILE.json.gz)"
    cp "$pack_debian" "$CARRY/debian_programs.json.gz"
  fi
  if [ -n "${pack_init:-}" ]; then
    # the weights to start from, as bf16 (half the bytes; run.py's load_init casts them back)
    "${NDB_TRAIN_PYTHON:-/usr/bin/python3}" -c '
import sys, torch
c = torch.load(sys.argv[1], map_location="cpu")
if "model" not in c or "model_config" not in c:
    sys.exit(f"{sys.argv[1]}: not a checkpoint of training.train, import_onnx or unpack (no model / model_config)")
model = {k: v.bfloat16() if v.is_floating_point() else v for k, v in c["model"].items()}
torch.save({"model": model, "model_config": c["model_config"], "step": c.get("step")}, sys.argv[2])
' "$pack_init" "$CARRY/init.pt" || die "could not write $CARRY/init.pt from $pack_init"
  fi
  if [ -n "${pack_shards:-}" ]; then
    # shards built ahead (training/ahead.py): whole done chunks, oldest first, while they fit in
    # what may travel (62.5 MiB, less the tracked files and the rest of the carry, init.pt included:
    # it is packed first)
    [ -d "$pack_shards" ] || die "no shards at $pack_shards (python3 -m training.ahead --out DIR ...)"
    local room
    room="$(awk -v t="$(travel_size)" 'BEGIN {printf "%.0f", (62.5 - t) * 1048576}')"
    "${NDB_TRAIN_PYTHON:-/usr/bin/python3}" - "$pack_shards" "$CARRY/shards" "$room" <<'PY' || die "could not carry the shards of $pack_shards"
import json, shutil, sys
from pathlib import Path
from training.ahead import done_chunks
src, dst, room = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
dst.mkdir(parents=True, exist_ok=True)
taken, size, tokens = [], 0, 0
for c in done_chunks(src):
    chunk = Path(c["dir"])
    files = [p for p in chunk.iterdir() if p.is_file()]
    need = sum(p.stat().st_size for p in files)
    if size + need > room:
        break
    shutil.copytree(chunk, dst / chunk.name)
    taken.append(c["seed"]); size += need; tokens += c["tokens"]["train"]
print(f"shards: {len(taken)} chunk(s) of {src} carried (seeds {taken}), {tokens:,} train tokens in {size / 2**20:.1f} MiB")
PY
  fi
  git check-ignore -q "$CARRY" || die "$CARRY is not git-ignored: it would travel twice (add runs/ to .gitignore)"
  local mib
  mib="$(travel_size)"
  echo "packed $CARRY: $(du -sh "$CARRY" | cut -f1) (the corpus with its extraction, and Pyodide's python_stdlib.zip${pack_debian:+, the Debian programs in debian_programs.json.gz}${pack_init:+, $pack_init as bf16 in init.pt: start from it with --init $CARRY/init.pt})"
  echo "what travels with carry [\"$CARRY\"]: $mib MiB of the 64 MiB allowed"
  awk -v m="$mib" 'BEGIN {exit !(m < 63)}' || die "$mib MiB would travel: over the 64 MiB a run takes (untracked files of the checkout travel too; the ONNX files of public/models can stay behind: training/README.md, 'What the real leases … taught')"
}

train() {  # train PYTHON CONFIG OUT MINUTES [run.py options...]
  local py="$1" config="$2" out="$3" minutes="$4"
  shift 4
  mkdir -p "$out"
  local deadline
  deadline="$(awk -v now="$(date +%s)" -v m="$minutes" 'BEGIN {printf "%.0f", now + 60 * m}')"
  # the corpus and the stdlib sources, where --pack put them for the device machine
  if [ -z "${NDB_CORPUS:-}" ] && [ -d "$CARRY/corpus" ]; then export NDB_CORPUS="$ROOT/$CARRY/corpus"; fi
  if [ -z "${NDB_DEBIAN_PROGRAMS:-}" ] && [ -f "$CARRY/debian_programs.json.gz" ]; then
    export NDB_DEBIAN_PROGRAMS="$ROOT/$CARRY/debian_programs.json.gz"
  fi
  if [ ! -f node_modules/pyodide/python_stdlib.zip ] && [ -f "$CARRY/python_stdlib.zip" ]; then
    mkdir -p node_modules/pyodide && cp "$CARRY/python_stdlib.zip" node_modules/pyodide/
  fi
  [ -f node_modules/pyodide/python_stdlib.zip ] ||
    echo "lease.sh: warning: no python_stdlib.zip: stdlib programs come from this Python's own sources" >&2
  export PYTHONUNBUFFERED=1
  set +e
  ${NICE:-} "$py" -m training.lease.run --config "$config" --out "$out" --deadline "$deadline" --tokenizer "$TOKENIZER" "$@" 2>&1 |
    tee "$out/lease.log"
  local code="${PIPESTATUS[0]}"
  set -e
  echo "--- $out" | tee -a "$out/lease.log"
  "$py" -m training.lease.parts "$out" 2>&1 | tee -a "$out/lease.log"
  local check="${PIPESTATUS[0]}"
  [ "$code" = 0 ] || die "the run failed (status $code): $out/lease.log"
  [ "$check" = 0 ] || die "$out would not come back whole (above)"
}

# The shipped ONNX files, by git's name for them: they travel with every `run` while tracked.
onnx_files() { git ls-files 'public/models/*/onnx/*.onnx'; }
EXCLUDE="$(git rev-parse --git-path info/exclude)"
SLIM_MARK="# lease.sh --slim: the shipped ONNX files stay behind (--unslim puts them back)"

slim() {
  local files
  files="$(onnx_files)"
  [ -n "$files" ] || { echo "lease.sh: already slim (no ONNX file is tracked)"; return 0; }
  mkdir -p "$(dirname "$EXCLUDE")"
  { echo "$SLIM_MARK"; echo "$files"; } >> "$EXCLUDE"
  # shellcheck disable=SC2086
  git rm -q --cached $files
  echo "slim: $(echo "$files" | wc -l) ONNX file(s) left out of git's index (still on disk); what travels now: $(travel_size) MiB. Run --unslim after the lease."
}

unslim() {
  if grep -qF "$SLIM_MARK" "$EXCLUDE" 2>/dev/null; then
    awk -v mark="$SLIM_MARK" '$0 == mark {skip = 1; next} skip && /^public\/models\/.*\.onnx$/ {next} {skip = 0; print}' "$EXCLUDE" > "$EXCLUDE.tmp" && mv "$EXCLUDE.tmp" "$EXCLUDE"
  fi
  git reset -q -- public/models
  echo "unslim: $(onnx_files | wc -l) ONNX file(s) tracked again; git status shows no change to them"
}

mode="device" minutes="" out="${OUT:-}" config="" pass=()
while [ $# -gt 0 ]; do
  case "$1" in
    --pack) mode="pack"; shift ;;
    --slim) mode="slim"; shift ;;
    --unslim) mode="unslim"; shift ;;
    --rehearse) mode="rehearse"; out="${2:?--rehearse OUT}"; shift 2 ;;
    --import) mode="import"; src="${2:?--import OUT MODEL_DIR}"; model_dir="${3:?--import OUT MODEL_DIR}"; shift 3 ;;
    --minutes) minutes="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --config) config="$2"; shift 2 ;;
    --init) if [ "$mode" = pack ]; then pack_init="$2"; else pass+=("$1" "$2"); fi; shift 2 ;;
    --shards) pack_shards="${2:?--shards DIR}"; case "$pack_shards" in /*) ;; *) pack_shards="$CALLER/$pack_shards" ;; esac; shift 2 ;;
    --debian) pack_debian="${2:?--debian SNAPSHOT}"; case "$pack_debian" in /*) ;; *) pack_debian="$CALLER/$pack_debian" ;; esac; shift 2 ;;
    --seed|--workers|--recipe) pass+=("$1" "$2"); shift 2 ;;
    --) shift; pass+=("$@"); break ;;
    -h|--help) sed -n '2,29p' "$0"; exit 0 ;;
    *) die "unknown option $1 (--help)" ;;
  esac
done

[ -z "${pack_debian:-}" ] || [ "$mode" = pack ] || die "--debian goes with --pack (the device run reads what --pack carried)"
[ -z "${pack_shards:-}" ] || [ "$mode" = pack ] || die "--shards goes with --pack (the device run reads what --pack carried)"

case "$mode" in
  pack) pack ;;
  slim) slim ;;
  unslim) unslim ;;

  device)
    [ -n "$out" ] || die "give --out DIR (or run it where \$OUT is set)"
    python3 -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else 1)' ||
      die "python3 is $(python3 -V 2>&1): live data traces with Python >= 3.12 (here, use --rehearse)"
    python3 -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' ||
      die "python3's torch sees no CUDA device: a lease trains on the GPU (here, use --rehearse)"
    command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader || true
    echo "cores: $(nproc); $(python3 -V); torch $(python3 -c 'import torch; print(torch.__version__, "cuda", torch.cuda.is_available())')"
    train python3 "${config:-training/configs/gpu-lease-20m.json}" "$out" "${minutes:-8}" "${pass[@]}"
    ;;

  rehearse)
    wpy="$(worker_python)" || die "no Python >= 3.12 for the data workers (set NDB_WORKER_PYTHON)"
    tpy="${NDB_TRAIN_PYTHON:-/usr/bin/python3}"
    "$tpy" -c 'import torch' 2>/dev/null || die "$tpy has no torch (set NDB_TRAIN_PYTHON)"
    echo "rehearsal: data workers under $wpy ($("$wpy" -V 2>&1)), training under $tpy (torch $("$tpy" -c 'import torch; print(torch.__version__)'))"
    started=$(date +%s)
    # niced: these machines' two cores may be training something else meanwhile
    NICE="nice -n 10" train "$tpy" "${config:-training/configs/lease-rehearse.json}" "$out" "${minutes:-4}" --worker-python "$wpy" "${pass[@]}"
    echo "rehearsal done in $(( $(date +%s) - started )) s: $out"
    ;;

  import)
    py="${NDB_TRAIN_PYTHON:-/usr/bin/python3}"
    name="$(basename "$model_dir")"
    ckpt="runs/leases/$name/checkpoint.pt"
    "$py" -m training.lease.unpack "$src" --checkpoint "$ckpt" --tokenizer "$TOKENIZER"
    "$py" -m training.export --checkpoint "$ckpt" --tokenizer "$TOKENIZER" --out "$model_dir" ${config:+--config "$config"}
    "$py" -m training.quantize "$model_dir"
    cp "$src/manifest.json" "$model_dir/lease_manifest.json"
    if command -v node >/dev/null; then
      # the contract (issue 32): ndb runs the folder; three predicted steps show the decoder works with it
      npm run --silent ndb -- debug examples/01_loop_sum.py --engine neural --model "$model_dir" \
        --actions step_into,step_over,step_over --json > "runs/leases/$name/debug.json" ||
        die "ndb debug failed on $model_dir"
      "$py" -c 'import json, sys; s = json.load(open(sys.argv[1]))["states"]; assert len(s) == 4, s; print(f"ndb debug ran on the model: {len(s) - 1} predicted states")' \
        "runs/leases/$name/debug.json" || die "ndb debug on $model_dir did not predict 3 states: runs/leases/$name/debug.json"
    fi
    echo "imported $src into $model_dir (checkpoint $ckpt)"
    ;;
esac
