# Shared by tools/run-main-job and tools/run-tests (sourced, not run): installs the Debian
# packages the build needs, then configures and builds a build tree. Safe to run again:
# only missing packages are installed and existing build trees are built incrementally.

CUCL_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CUCL_JOBS="${CUCL_JOBS:-$(nproc)}"
CUCL_PACKAGES=(cmake ninja-build g++ python3 opencl-headers ocl-icd-opencl-dev libtbb-dev libgtest-dev clinfo
  clang-15 llvm-15 llvm-15-dev libclang-15-dev libclang-cpp15-dev libllvmspirvlib-15-dev llvm-spirv-15 spirv-tools
  libclc-15 libsleef-dev)

cucl_say() { printf '==> %s\n' "$*"; }

# Runs "$@" with its output in a log that is shown only if the command fails.
cucl_quietly() {
  local log status=0
  log="$(mktemp)"
  "$@" >"$log" 2>&1 || status=$?
  if [ "$status" -ne 0 ]; then
    cat "$log" >&2
    printf 'error: %s failed with status %d\n' "$*" "$status" >&2
  fi
  rm -f "$log"
  return "$status"
}

cucl_install_packages() {
  local missing=() package
  for package in "${CUCL_PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}\n' "$package" 2>/dev/null | grep -q '^install ok installed$'; then
      missing+=("$package")
    fi
  done
  if [ "${#missing[@]}" -eq 0 ]; then
    cucl_say "build dependencies already installed"
    return 0
  fi
  local as_root=()
  if [ "$(id -u)" -ne 0 ]; then as_root=(sudo); fi
  cucl_say "installing ${missing[*]}"
  cucl_quietly "${as_root[@]}" apt-get update -qq
  cucl_quietly "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -qq --no-install-recommends -o Dpkg::Use-Pty=0 "${missing[@]}"
}

# cucl_build DIR [TARGET...] -- [CMAKE OPTION...]: configures DIR (Ninja) and builds the
# targets (everything if none are named).
cucl_build() {
  local dir="$1" targets=() options=()
  shift
  while [ "$#" -gt 0 ] && [ "$1" != "--" ]; do targets+=("$1"); shift; done
  if [ "$#" -gt 0 ]; then shift; options=("$@"); fi

  local generator=(-G Ninja)
  if [ -f "$dir/CMakeCache.txt" ]; then generator=(); fi  # keep the generator it was made with
  cucl_say "configuring $dir ${options[*]}"
  cucl_quietly cmake -S "$CUCL_ROOT" -B "$dir" "${generator[@]}" "${options[@]}"

  local build=(cmake --build "$dir" -j "$CUCL_JOBS")
  if [ "${#targets[@]}" -gt 0 ]; then build+=(--target "${targets[@]}"); fi
  if grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja$' "$dir/CMakeCache.txt"; then build+=(-- --quiet); fi
  cucl_say "building $dir (${targets[*]:-all targets}, $CUCL_JOBS jobs)"
  local start=$SECONDS
  "${build[@]}"
  cucl_say "built $dir in $((SECONDS - start)) s"
}
