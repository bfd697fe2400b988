#!/usr/bin/env perl
# Checks the module picture: docs/architecture.md's "Modules" table is the order of the modules
# (imports only go down it), Package.swift declares each target's dependencies, and the sources
# import what both allow.
#
#   perl Scripts/check-modules.pl [ROOT]   (Scripts/test.sh runs it; ROOT defaults to the package)
#
# Fails, naming the module and the file, when a source file under Sources/NAME imports a Swell or
# C module that Package.swift does not declare for NAME, when NAME depends on a module that is not
# above it in the table, or when a module under Sources is missing from the table.
use strict;
use warnings;

my $root = shift @ARGV // '.';
my @problems;

# The table: rows of the "## Modules" section whose first cell names modules in backquotes.
open(my $doc, '<', "$root/docs/architecture.md") or die "check-modules: docs/architecture.md: $!\n";
my ($inModules, %rank, $row) = (0);
$row = 0;
while (my $line = <$doc>) {
  if ($line =~ /^## /) { $inModules = ($line =~ /^## Modules\b/); next; }
  next unless $inModules && $line =~ /^\|\s*(`[^|]*`)\s*\|/;
  my $cell = $1;
  $row++;
  while ($cell =~ /`([A-Za-z0-9_]+)`/g) { $rank{$1} = $row; }
}
close $doc;
die "check-modules: no module table in docs/architecture.md\n" unless %rank;

# Package.swift: each target's name and the quoted names in its dependencies list.
open(my $pkg, '<', "$root/Package.swift") or die "check-modules: Package.swift: $!\n";
my $package = do { local $/; <$pkg> };
close $pkg;
my %declared;
for my $piece (split /\.(?:target|executableTarget|testTarget|systemLibrary|plugin)\(/, $package) {
  next unless $piece =~ /^\s*name:\s*"([^"]+)"/;
  my $name = $1;
  my %deps;
  if ($piece =~ /dependencies:\s*\[([^\]]*)\]/s) {
    my $list = $1;
    $deps{$1} = 1 while $list =~ /"([^"]+)"/g;
  }
  $declared{$name} = \%deps;
}

# The sources: every Swell* folder under Sources (the C folders are system libraries).
opendir(my $sources, "$root/Sources") or die "check-modules: Sources: $!\n";
my @modules = sort grep { !/^\./ && -d "$root/Sources/$_" && !/^C[A-Z]/ } readdir $sources;
closedir $sources;
for my $module (@modules) {
  unless (exists $rank{$module}) {
    push @problems, "$module is not in docs/architecture.md's module table";
    next;
  }
  my $deps = $declared{$module} // {};
  for my $dep (sort keys %$deps) {
    next unless $dep =~ /^Swell/ && exists $rank{$dep};
    push @problems,
      "$module depends on $dep in Package.swift, which is not above it in docs/architecture.md's"
      . " table (imports only go down it)"
      unless $rank{$dep} < $rank{$module};
  }
  my @files = `find "$root/Sources/$module" -name '*.swift' -type f`;
  chomp @files;
  for my $file (sort @files) {
    open(my $fh, '<', $file) or next;
    while (my $line = <$fh>) {
      next unless $line =~ /^\s*(?:@[A-Za-z_]+(?:\([^)]*\))?\s+)*import\s+(?:(?:struct|class|enum|func|protocol|typealias|var|let)\s+)?([A-Za-z0-9_]+)/;
      my $imported = $1;
      next unless $imported =~ /^Swell/ || ($imported =~ /^C[A-Z]/ && $imported ne 'CoreFoundation');
      next if $imported eq $module;
      (my $shown = $file) =~ s/^\Q$root\E\/?//;
      if (!$deps->{$imported}) {
        push @problems, "$shown:$.: $module imports $imported, which Package.swift does not declare for it";
      } elsif ($imported =~ /^Swell/ && exists $rank{$imported} && $rank{$imported} >= $rank{$module}) {
        push @problems,
          "$shown:$.: $module imports $imported, which is not above it in docs/architecture.md's table";
      }
    }
    close $fh;
  }
}

if (@problems) {
  print STDERR "check-modules: $_\n" for @problems;
  exit 1;
}
printf "check-modules: %d modules import only what Package.swift declares, down the table\n",
  scalar @modules;
