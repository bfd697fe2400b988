#!/usr/bin/env perl
# Picks the few new fuzzing inputs worth keeping in a parser's corpus: greedily, the input that
# reaches the most code edges the corpus (and the inputs already picked) does not, the smaller on
# a tie, until COUNT are picked or none reaches anything new. Prints their paths, one a line.
#
#   perl Scripts/fuzz-corpus-pick.pl CONTROL CORPUS COUNT   (Scripts/fuzz.sh --update-corpus)
#
# CONTROL is the control file of a libFuzzer merge (-merge=1 -merge_control_file=CONTROL) over
# CORPUS and the new inputs: the input paths, then "COV index edge..." lines, one per input.
use strict;
use warnings;

my ($control, $corpus, $count) = @ARGV;
die "usage: fuzz-corpus-pick.pl CONTROL CORPUS COUNT\n" unless defined $count;
open(my $fh, '<', $control) or die "fuzz-corpus-pick: $control: $!\n";
my $inputs = <$fh>;
<$fh>;    # how many of them were in the merge's output folder (none)
chomp $inputs;
my @paths;
for (1 .. $inputs) {
  my $path = <$fh>;
  chomp $path;
  push @paths, $path;
}
my %edges;    # input index => [edges]
while (my $line = <$fh>) {
  next unless $line =~ /^COV (\d+)((?: \d+)*)\s*$/;
  $edges{$1} = [split ' ', $2];
}
close $fh;

my %covered;
my @candidates;
for my $i (0 .. $#paths) {
  if (index($paths[$i], "$corpus/") == 0) {
    $covered{$_} = 1 for @{$edges{$i} // []};
  } else {
    push @candidates, $i;
  }
}
my @picked;
while (@picked < $count) {
  my ($best, $bestGain, $bestSize) = (undef, 0, 0);
  for my $i (@candidates) {
    my $gain = grep { !$covered{$_} } @{$edges{$i} // []};
    my $size = -s $paths[$i] // 0;
    if ($gain > $bestGain || ($gain == $bestGain && $gain > 0 && $size < $bestSize)) {
      ($best, $bestGain, $bestSize) = ($i, $gain, $size);
    }
  }
  last unless defined $best;
  $covered{$_} = 1 for @{$edges{$best}};
  push @picked, $best;
  @candidates = grep { $_ != $best } @candidates;
}
print "$paths[$_]\n" for @picked;
