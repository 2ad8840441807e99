// Run first by `npm test` (and so by .ci/run): the Debian packages the tests need beside
// node_modules — Chromium for the browser tests, Python with pytest, NumPy, PyTorch and ONNX for
// the training tests, OpenMP OpenBLAS (without it PyTorch's matrix products are ~20× slower), and
// CPython's test suite and documentation (the Debian program sources), and bubblewrap (the
// operating system's sandbox of the engine that the CLI, DAP and MCP run programs in).
// What is missing is installed with apt-get when this runs as root; otherwise the exact command is
// printed and the tests do not start.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const PYTHON = '/usr/bin/python3';

/** Each need: the Debian packages that provide it, and how to tell it is there. */
const NEEDS = [
  { packages: ['chromium'], present: () => existsSync('/usr/bin/chromium') },
  // The operating system's sandbox of the Node faces' engine (src/realEngine/node/osSandbox.ts).
  { packages: ['bubblewrap'], present: () => existsSync('/usr/bin/bwrap') },
  { packages: ['python3-pytest'], present: () => pythonHas('pytest') },
  { packages: ['python3-numpy'], present: () => pythonHas('numpy') },
  { packages: ['python3-torch'], present: () => pythonHas('torch') },
  { packages: ['libopenblas0-openmp'], present: () => debianHas('libopenblas0-openmp') },
  { packages: ['python3-onnx'], present: () => pythonHas('onnx') },
  // Real Python that the Debian program sources read (training/data/debian.py) and test on.
  { packages: ['libpython3.11-testsuite'], present: () => existsSync('/usr/lib/python3.11/test/test_builtin.py') },
  { packages: ['python3.11-doc'], present: () => existsSync('/usr/share/doc/python3.11/html/_sources/library/stdtypes.rst.txt') },
];

function pythonHas(module) {
  return existsSync(PYTHON) && spawnSync(PYTHON, ['-c', `import ${module}`], { stdio: 'ignore' }).status === 0;
}

function debianHas(pkg) {
  const res = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
  // Without dpkg (not Debian) there is no telling: the Python checks speak for the rest.
  if (res.error) return true;
  return res.status === 0 && res.stdout.includes('install ok installed');
}

function missing() {
  return NEEDS.filter((n) => !n.present()).flatMap((n) => n.packages);
}

const wanted = missing();
if (wanted.length === 0) process.exit(0);

const command = `apt-get update && apt-get install -y ${wanted.join(' ')}`;
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const hasApt = spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
if (!isRoot || !hasApt) {
  console.error(`The tests need Debian packages that are not installed: ${wanted.join(', ')}.`);
  console.error(
    hasApt ? `Install them with:\n\n  sudo apt-get update && sudo apt-get install -y ${wanted.join(' ')}\n` : `Install them (on Debian: ${command}).`,
  );
  process.exit(1);
}

console.log(`ensure-system-deps: installing ${wanted.join(' ')}`);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
try {
  execFileSync('apt-get', ['update', '-q'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-q', ...wanted], { stdio: 'inherit', env });
} catch {
  console.error(`ensure-system-deps: apt-get failed; run \`${command}\` and try again.`);
  process.exit(1);
}
const still = missing();
if (still.length > 0) {
  console.error(`ensure-system-deps: still missing after apt-get: ${still.join(', ')}`);
  process.exit(1);
}
