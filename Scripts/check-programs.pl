#!/usr/bin/env perl
# Fails when a test, a script or the library starts a program that Scripts/install-deps.sh would
# not provide, with one line per program naming it, where it is started and its Debian package.
#
#   perl Scripts/check-programs.pl [--verbose]   (Scripts/test.sh runs it before building;
#                                                --verbose lists every program found)
#
# What counts as "started":
# - Swift (Sources, Tests, Examples): the first string literal of a call to runProgram,
#   requireTool, spawnProgram or posix_spawnp; a `#!/bin/NAME` line that a test writes; and a
#   `// Starts: NAME` comment in a library file that starts a process. Only the files in
#   @spawners may use Process, posix_spawn, exec, system or popen at all, so a new way of starting
#   programs cannot slip past the scan.
# - Shell (Scripts/*.sh, .ci/run): the command word of every simple command, every `$(command`,
#   and the command after sudo, exec, timeout, xvfb-run, env, nice and xargs.
# A program passes when install-deps.sh lists it, when it comes from the Swift toolchain (the
# folder that holds `swift`), or when dpkg says its package is essential or of priority
# "required" (present on every Debian and Ubuntu system).
use strict;
use warnings;
use File::Basename qw(dirname);
use File::Find;
use Cwd qw(abs_path);

chdir(dirname(abs_path($0)) . "/..") or die "check-programs: cannot enter the package root\n";

# The only Swift files that may start processes; their callers are scanned for program names.
my @spawners = (
  "Tests/SwellTestSupport/ToolRunner.swift",
  "Sources/SwellRender/Sinks/VideoSink.swift",
  "Sources/SwellBenchmarks/ExportBenchmark.swift",  # ffmpeg, the export figures' baseline
  "Tests/SwellToolTests/LiveCommandTests.swift",    # runs the built swell only
  "Tests/SwellToolTests/ServeCommandTests.swift",   # runs the built swell only (a DSU server)
  "Tests/SwellToolTests/SensorsCommandTests.swift", # runs the built swell only (doctor, DSU server)
);

my %listed;
for (`bash Scripts/install-deps.sh --list-programs`) {
  my ($program, $package) = split;
  $listed{$program} = $package if defined $package;
}
die "check-programs: Scripts/install-deps.sh --list-programs listed nothing\n" unless %listed;

my %found;    # program => first "file" that starts it
my $failed = 0;

my @swift;
for my $dir (grep { -d } qw(Sources Tests Examples)) {
  find(sub { push @swift, $File::Find::name if /\.swift$/ }, $dir);
}
for my $file (sort @swift) {
  open(my $fh, "<", $file) or die "check-programs: cannot read $file: $!\n";
  local $/;
  my $text = <$fh>;
  if ($text =~ /\bProcess\(\)|posix_spawn|\bexecv[pe]?\(|(?<![\w.])(?<!func )system\(|\bpopen\(/
    && !grep { $_ eq $file } @spawners)
  {
    print STDERR "check-programs: $file starts a process itself; go through runProgram or "
      . "spawnProgram (Tests/SwellTestSupport/ToolRunner.swift) so that its program is checked\n";
    $failed = 1;
  }
  while ($text =~ /\b(?:runProgram|requireTool|spawnProgram|posix_spawnp)\(\s*(?:&\w+,\s*)?"([^"\\]+)"/g) {
    $found{$1} //= $file;
  }
  while ($text =~ /#!\/(?:usr\/)?bin\/(?:env )?([\w.-]+)/g) { $found{$1} //= $file; }
  while ($text =~ /\/\/ Starts: ([\w.-]+)/g) { $found{$1} //= $file; }
}

my %keyword = map { $_ => 1 } qw(if then else elif do while until ! time {);
my %stop = map { $_ => 1 } qw(
  for case in esac fi done function select return exit local declare export readonly unset set
  shift trap wait read echo printf cd pushd popd source . : true false test [ [[ ]] ]] } break
  continue mapfile eval let type command builtin getopts umask ulimit);
my %wrapper = map { $_ => 1 } qw(sudo exec timeout xvfb-run env nice xargs);

for my $file (grep { -f } (glob("Scripts/*.sh"), ".ci/run")) {
  open(my $fh, "<", $file) or die "check-programs: cannot read $file: $!\n";
  # The script's own shell functions (`name() {`) are not programs.
  my %function;
  for (<$fh>) { $function{$1} = 1 if /^\s*([A-Za-z_][\w-]*)\s*\(\)\s*\{/; }
  seek($fh, 0, 0);
  my $in_single = 0;
  my $heredoc;    # the terminator of the here-document being skipped (its lines are text)
  while (my $line = <$fh>) {
    chomp $line;
    if (defined $heredoc) { undef $heredoc if $line =~ /^\t*\Q$heredoc\E$/; next; }
    $heredoc = $1 if $line =~ /<<-?\s*['"]?(\w+)['"]?/ && $line !~ /<<</;
    # A single-quoted string that spans lines is an argument (an awk or perl program, say).
    if ($in_single) {
      my $quotes = () = $line =~ /'/g;
      $in_single = 0 if $quotes % 2;
      next;
    }
    # Comments go first: an apostrophe in one opens no string.
    next if $line =~ /^\s*#/;
    $line =~ s/(^|\s)#.*$//;
    while ($line =~ /\$\(\s*([A-Za-z_][\w.+-]*)(=?)/g) {
      $found{$1} //= $file unless $2 || $stop{$1} || $function{$1};
    }
    $found{$1} //= $file while $line =~ /\s-exec\s+([A-Za-z_][\w.+-]*)/g;    # find -exec
    $line =~ s/"\$\{\w+\[@\]\}"\s+//g;    # a command prefix kept in an array ("${sudo[@]}")
    $line =~ s/'[^']*'/ STR /g;
    if ($line =~ /'/) { $in_single = 1; $line =~ s/'.*$//; }
    $line =~ s/"[^"]*"/ STR /g;
    $line =~ s/\b\w+=\([^)]*\)/ /g;    # array assignments
    for my $part (split /\|\||&&|[|;&()`]|\$\(/, $line) {
      my @words = split " ", $part;
      shift @words while @words && $words[0] =~ /^\w+=/;
      while (@words) {
        my $word = shift @words;
        next if $keyword{$word};
        last if $stop{$word} || $function{$word} || $word eq "STR"
          || $word =~ /^[\$<>0-9-]|[=\/<>*\\]/;
        if ($wrapper{$word}) {
          $found{$word} //= $file unless $word eq "exec";
          shift @words while @words && $words[0] =~ /^(-|[0-9]|STR$)/;
          next;
        }
        $found{$word} //= $file;
        last;
      }
    }
  }
}

my $swift = `bash -c 'command -v swift'`;
chomp $swift;
my $toolchain = $swift ? dirname(abs_path($swift)) : "";

sub package_of {
  my ($program) = @_;
  my $path = `bash -c 'command -v "\$1"' _ $program 2>/dev/null`;
  chomp $path;
  return undef unless $path;
  for my $candidate ($path, abs_path($path) // $path, "/bin/$program", "/usr/bin/$program",
    "/sbin/$program", "/usr/sbin/$program")
  {
    for my $owner (`dpkg -S '$candidate' 2>/dev/null`) {
      return (split /:/, $owner)[0] unless $owner =~ /^diversion /;
    }
  }
  return "";
}

my $verbose = grep { $_ eq "--verbose" } @ARGV;
for my $program (sort keys %found) {
  my $where = $found{$program};
  printf "  %-14s %-28s %s\n", $program, $listed{$program} // "-", $where if $verbose;
  next if exists $listed{$program};
  my $path = `bash -c 'command -v "\$1"' _ $program 2>/dev/null`;
  chomp $path;
  next if $path && $toolchain && dirname(abs_path($path) // $path) eq $toolchain;
  my $package = package_of($program);
  if (defined $package && $package ne "") {
    my $kind = `dpkg-query -W -f='\${Essential} \${Priority}' '$package' 2>/dev/null`;
    next if $kind =~ /^yes|required$/;
    print STDERR "check-programs: $program (Debian package $package) is started by $where "
      . "but Scripts/install-deps.sh does not install it\n";
  } else {
    print STDERR "check-programs: $program is started by $where but is neither installed here "
      . "nor listed in Scripts/install-deps.sh (find its Debian package and list it there)\n";
  }
  $failed = 1;
}

exit 1 if $failed;
my %files = map { $_ => 1 } values %found;
printf "check-programs: %d programs started by %d files, each from Scripts/install-deps.sh, "
  . "the Swift toolchain or a package every Debian system has\n", scalar(keys %found),
  scalar(keys %files);
