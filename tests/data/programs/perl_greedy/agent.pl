#!/usr/bin/perl
# A test agent for the apdp-agent/1 protocol, written for apdp's tests: every won task is carried
# by the first vehicle, one after the other, along shortest paths (Dijkstra over the roads).
use strict;
use warnings;
use JSON::PP;

$| = 1;
my $json = JSON::PP->new->canonical;
my (%road, %home, $vehicles, $cost);

sub shortest {    # (distance, path without the start) from $a to $b
    my ($from, $to) = @_;
    my %dist = ($from => 0);
    my %prev;
    my %done;
    while (1) {
        my ($u) = sort { $dist{$a} <=> $dist{$b} || $a cmp $b } grep { !$done{$_} } keys %dist;
        last unless defined $u;
        last if $u eq $to;
        $done{$u} = 1;
        for my $v (keys %{ $road{$u} }) {
            my $d = $dist{$u} + $road{$u}{$v};
            if (!defined $dist{$v} || $d < $dist{$v}) { $dist{$v} = $d; $prev{$v} = $u; }
        }
    }
    my @path;
    for (my $c = $to; $c ne $from; $c = $prev{$c}) { unshift @path, $c; }
    return ($dist{$to}, @path);
}

my @won;
my $here;
while (my $line = <STDIN>) {
    my $req = $json->decode($line);
    my $type = $req->{type};
    my $reply;
    if ($type eq 'setup') {
        for my $r (@{ $req->{topology}{roads} }) {
            $road{ $r->{from} }{ $r->{to} } = $r->{km};
            $road{ $r->{to} }{ $r->{from} } = $r->{km};
        }
        $vehicles = $req->{company}{vehicles};
        $cost = $vehicles->[0]{cost_per_km};
        $here = $vehicles->[0]{home};
        print STDERR "perl agent $req->{agent_id} of $req->{agents} ready\n";
        $reply = { ok => JSON::PP::true };
    } elsif ($type eq 'bid') {
        my $t = $req->{task};
        if ($t->{weight} > $vehicles->[0]{capacity}) {
            $reply = { bid => undef };
        } else {
            my ($d1) = shortest($here, $t->{pickup});
            my ($d2) = shortest($t->{pickup}, $t->{delivery});
            $reply = { bid => int(($d1 + $d2) * $cost) + 100 };
        }
    } elsif ($type eq 'auction_result') {
        $reply = { ok => JSON::PP::true };
    } elsif ($type eq 'plan') {
        my @plan;
        my $at = $req->{vehicles}[0]{home};
        for my $t (sort { $a->{id} <=> $b->{id} } @{ $req->{tasks} }) {
            my (undef, @p1) = shortest($at, $t->{pickup});
            push @plan, map { ['move', $_] } @p1;
            push @plan, ['pickup', $t->{id}];
            my (undef, @p2) = shortest($t->{pickup}, $t->{delivery});
            push @plan, map { ['move', $_] } @p2;
            push @plan, ['deliver', $t->{id}];
            $at = $t->{delivery};
        }
        my @plans = (\@plan);
        push @plans, [] for 2 .. scalar @{ $req->{vehicles} };
        $reply = { plans => \@plans };
    } else {
        $reply = { error => "unknown request $type" };
    }
    print $json->encode($reply), "\n";
}
