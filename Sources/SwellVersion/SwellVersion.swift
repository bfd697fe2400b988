/// The version of Swell, in one place: the tool prints it (`swell --version`) and
/// `Scripts/package.sh` names the Debian package and the tarball after it.
///
/// Versions follow semantic versioning (`MAJOR.MINOR.PATCH`); while the major number is 0, a
/// minor step may change the command line, the file formats and the library API.
package enum SwellVersion {
  /// The release number, `MAJOR.MINOR.PATCH`.
  package static let number = "0.1.0"

  /// The git commit the build was made from (12 hex digits, `-dirty` when tracked files had
  /// changes), or `nil` for a build outside a git checkout (a source tarball without `.git`).
  ///
  /// Written at build time by the `SwellBuildCommit` plugin (`Scripts/build-commit.sh`).
  package static let commit: String? = buildCommit

  /// One line for `swell --version`: `swell 0.1.0 (commit 0123456789ab)`, or `swell 0.1.0`
  /// without a commit.
  package static var line: String {
    guard let commit else { return "swell \(number)" }
    return "swell \(number) (commit \(commit))"
  }
}
