// Where core finds the library of a model's backend before the backend sees the model (core
// src/backend_model.cc r24.10, TritonModel::Create): for each version it loads, it looks in
// <model>/<version>, <model> and <backend directory>/<backend> (GetBackendLibrarySearchPaths), first
// for libtriton_<backend>.so, then for a Python-based backend's model.py in
// <backend directory>/<backend> alone (GetBackendRuntimeLibraryName); a `runtime` in the config names
// the file to look for instead (GetBackendLibraryProperties). A Python-based backend also needs the
// Python backend's own libtriton_python.so, in the same places or <backend directory>/python. The
// first place a file exists wins (FindBackendLibraryPath: FileExists, so a directory counts too). A
// library named by `runtime`, and the Python backend's under a Python-based backend, must not lead
// out of the directory it was found in once links are resolved (IsChildPathEscapingParentPath: such
// a library linked from elsewhere is refused; one found by the backend's own name is not checked).
import { join } from 'node:path';

/** tritonserver's --backend-directory when none is given (server src/command_line_parser.cc). */
export const DEFAULT_BACKEND_DIRECTORY = '/opt/tritonserver/backends';

/** A Python-based backend's entry file and the Python backend's name (core src/constants.h kPythonFilename, kPythonBackend). */
const PYTHON_FILENAME = 'model.py';
const PYTHON_BACKEND = 'python';

/** AssembleCPPRuntimeLibraryName on Linux. */
export const backendLibraryName = (backend: string): string => `libtriton_${backend}.so`;

export type BackendLibrary =
  | { kind: 'found'; path: string; pythonBased: boolean }
  /** "unable to find backend library for backend '<backend>', try specifying runtime on the model configuration." */
  | { kind: 'noLibraryForBackend'; backend: string; searched: string[] }
  /** "unable to find backend library '<library>' for model '<model>', searched: '<dir>' '<dir>' ..." */
  | { kind: 'noLibrary'; library: string; searched: string[]; pythonBased: boolean }
  /** "unable to find Python backend based backend library 'model.py' for model '<model>', searched: '<path>'" */
  | { kind: 'noPythonBasedLibrary'; library: string; searched: string[] }
  /** "backend library name '<library>' escapes backend directory '<dir>', for model '<model>', check model config runtime field" */
  | { kind: 'escapes'; library: string; dir: string; path: string };

export interface BackendLibraryQuery {
  /** The model directory, as the repository names it. */
  modelDir: string;
  version: number;
  backendDirectory: string;
  /** The backend after core's auto-fill. */
  backend: string;
  /** The config's runtime field ('' when unset). */
  runtime: string;
}

export interface BackendLibraryFiles {
  /** core's FileExists. */
  exists(path: string): boolean;
  /** The path with symbolic links resolved where it exists (std::filesystem::weakly_canonical). */
  realpath(path: string): string;
}

/**
 * The library core finds beside the model for one version (the first two of its search paths, which
 * do not depend on the server): `runtime`, or libtriton_<backend>.so, in <model>/<version> or <model>.
 * A custom backend shipped with its model (NVIDIA's Kaldi example: 1/libtriton_kaldi.so) is found here.
 */
export function libraryBesideModel(q: Omit<BackendLibraryQuery, 'backendDirectory'>, files: Pick<BackendLibraryFiles, 'exists'>): string | undefined {
  const name = q.runtime || backendLibraryName(q.backend);
  return [join(q.modelDir, String(q.version)), q.modelDir].map((dir) => join(dir, name)).find((p) => files.exists(p));
}

/** The library core loads for one version of a model, or why it finds none. */
export function findBackendLibrary(q: BackendLibraryQuery, files: BackendLibraryFiles): BackendLibrary {
  const exists = (p: string): boolean => files.exists(p);
  const backendPath = join(q.backendDirectory, q.backend);
  const searchPaths = [join(q.modelDir, String(q.version)), q.modelDir, backendPath];
  const find = (dirs: readonly string[], name: string): { dir: string; path: string } | undefined => {
    for (const dir of dirs) if (exists(join(dir, name))) return { dir, path: join(dir, name) };
    return undefined;
  };
  // A plain prefix test of the canonical paths, as core's (rfind(parent, 0)).
  const escapes = (found: { dir: string; path: string }): boolean => !files.realpath(found.path).startsWith(files.realpath(found.dir));

  let library = q.runtime;
  let pythonBased: boolean;
  // The Python-based backend's directory, where its model.py was found by name.
  let pythonDir: string | undefined;
  if (!library) {
    // Found by the backend's name, a C++ library is taken as it is: no check of where it leads.
    const cpp = find(searchPaths, backendLibraryName(q.backend));
    if (cpp) return { kind: 'found', path: cpp.path, pythonBased: false };
    if (!exists(join(backendPath, PYTHON_FILENAME)))
      return { kind: 'noLibraryForBackend', backend: q.backend, searched: [...searchPaths, join(backendPath, PYTHON_FILENAME)] };
    library = PYTHON_FILENAME;
    pythonBased = true;
    pythonDir = backendPath;
  } else {
    pythonBased = library === PYTHON_FILENAME;
  }
  // A Python-based backend runs on the Python backend's library, found also in its global place.
  const cppLibrary = pythonBased ? backendLibraryName(PYTHON_BACKEND) : library;
  const dirs = pythonBased ? [...searchPaths, join(q.backendDirectory, PYTHON_BACKEND)] : searchPaths;
  const found = find(dirs, cppLibrary);
  if (!found) return { kind: 'noLibrary', library: cppLibrary, searched: dirs, pythonBased };
  if (escapes(found)) return { kind: 'escapes', library: cppLibrary, ...found };
  if (pythonBased && !pythonDir) {
    const script = join(backendPath, PYTHON_FILENAME);
    if (!exists(script)) return { kind: 'noPythonBasedLibrary', library, searched: [script] };
  }
  return { kind: 'found', path: found.path, pythonBased };
}
