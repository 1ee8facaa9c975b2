/**
 * The exec agent's program (Perl: perl-base is essential on Debian, so every box has it from
 * the host's /usr; it starts in a few ms and forks cheaply from ~5 MB, where a node process's
 * fork costs as much as the spawn chain it replaces). Constant text, run as `perl -e`.
 *
 * Frames both ways are `id` (u32) `length` (u32) then fields, each a u32 length and bytes.
 * A request is `cwd, timeout_seconds, command, NAME=value…`: secrets arrive on the pipe,
 * never in an argv. The agent forks one runner per request (so a slow command never holds
 * another), and the runner forks `/bin/sh -c command` in a process group of its own, stdin
 * /dev/null, with the default signal dispositions and mask, in `cwd` (PWD and OLDPWD as a
 * shell's `cd` leaves them). Past the timeout the group gets TERM, KILL 2 s later if anything
 * of it is left. Each stream is kept up to 1 MB and the rest drained. After the command the
 * runner measures the workspace like `du -s -B1 -x` (blocks, hard links once, one file
 * system) and answers `done, exit_code, timed_out, truncated, used_bytes, stdout, stderr`;
 * a signalled shell answers 128, as the spawn chain did. The agent answers `ready` once and
 * `error, why` for a request it could not start; it leaves when its stdin closes.
 */
export const EXEC_AGENT_SCRIPT = String.raw`
use strict; use POSIX ();
$0 = "sessionboxer-exec-agent";
my $MAX = 1048576;
sub frame { my ($id, @f) = @_; my $p = pack('(N/a*)*', @f); pack('N N', $id, length $p) . $p }
sub put {
  my ($fh, $s) = @_;
  while (length $s) { my $n = syswrite($fh, $s); if (!defined $n) { next if $!{EINTR}; return 0 } substr($s, 0, $n, '') }
  1
}
sub usage {
  my @st = lstat('/workspace') or return -1;
  my ($dev, $total, %seen) = ($st[0], $st[12] * 512);
  my @dirs = ('/workspace');
  while (defined(my $d = pop @dirs)) {
    opendir(my $dh, $d) or next;
    for my $e (readdir $dh) {
      next if $e eq '.' || $e eq '..';
      my @s = lstat("$d/$e") or next;
      next if $s[0] != $dev;
      my $dir = -d _;
      next if !$dir && $s[3] > 1 && $seen{$s[1]}++;
      $total += $s[12] * 512;
      push @dirs, "$d/$e" if $dir;
    }
    closedir $dh;
  }
  $total
}
sub logical {
  my ($cwd) = @_;
  $cwd = ($ENV{PWD} // '/workspace') . "/$cwd" unless $cwd =~ m{^/};
  my @p; for (split m{/+}, $cwd) { next if $_ eq '' || $_ eq '.'; if ($_ eq '..') { pop @p } else { push @p, $_ } }
  '/' . join('/', @p)
}
sub command {
  my ($out, $err, $cwd, $cmd, @env) = @_;
  POSIX::setpgid(0, 0);
  $SIG{$_} = 'DEFAULT' for grep { $_ ne 'KILL' && $_ ne 'STOP' } keys %SIG;
  POSIX::sigprocmask(POSIX::SIG_SETMASK(), POSIX::SigSet->new);
  open(STDIN, '<', '/dev/null'); POSIX::dup2(fileno $out, 1); POSIX::dup2(fileno $err, 2);
  for (@env) { my ($k, $v) = split /=/, $_, 2; $ENV{$k} = $v }
  unless (chdir $cwd) { syswrite(STDERR, "sandbox-exec: 3: cd: can't cd to $cwd\n"); POSIX::_exit(126) }
  my $old = $ENV{PWD} // '/workspace';
  ($ENV{OLDPWD}, $ENV{PWD}) = ($old, logical($cwd));
  exec { '/bin/sh' } '/bin/sh', '-c', $cmd;
  POSIX::_exit(127);
}
sub runner {
  my ($res, $cwd, $secs, $cmd, @env) = @_;
  $0 = 'sessionboxer-exec-run';
  unless (-e '/root') { mkdir '/workspace/root'; symlink '/workspace/root', '/root' }
  pipe(my $or, my $ow) or die; pipe(my $er, my $ew) or die;
  my ($pid, $status, $timed);
  local $SIG{ALRM} = sub { local ($!, $?);
    if ($timed) { kill 'KILL', -$pid } else { $timed = 1; kill 'TERM', -$pid; alarm 2 } };
  local $SIG{CHLD} = sub { local ($!, $?);
    if (!defined $status && waitpid($pid, POSIX::WNOHANG()) == $pid) { $status = $?; alarm 0 unless $timed } };
  $pid = fork; die "fork: $!" unless defined $pid;
  if (!$pid) { close $or; close $er; command($ow, $ew, $cwd, $cmd, @env) }
  close $ow; close $ew;
  alarm $secs;
  my %open = (1 => $or, 2 => $er); my %buf = (1 => '', 2 => ''); my $cut = 0;
  while (%open) {
    my $rin = ''; vec($rin, fileno $_, 1) = 1 for values %open;
    next if select(my $rout = $rin, undef, undef, undef) <= 0;
    for my $k (keys %open) {
      next unless vec($rout, fileno $open{$k}, 1);
      my $got = sysread($open{$k}, my $chunk, 65536);
      next if !defined $got && $!{EINTR};
      if (!$got) { delete $open{$k}; next }
      my $room = $MAX - length $buf{$k};
      if ($got > $room) { $cut = 1; $chunk = substr($chunk, 0, $room) }
      $buf{$k} .= $chunk;
    }
  }
  while (!defined $status) { my $k = waitpid($pid, 0); if ($k == $pid) { $status = $? } elsif ($k < 0 && !$!{EINTR}) { last } }
  for (1 .. ($timed ? 200 : 0)) { last unless kill 0, -$pid; select(undef, undef, undef, 0.01) }
  kill 'KILL', -$pid if $timed;
  alarm 0;
  my $code = defined $status && POSIX::WIFEXITED($status) ? POSIX::WEXITSTATUS($status) : 128;
  put($res, frame(0, 'done', $code, $timed ? 1 : 0, $cut, usage(), $buf{1}, $buf{2}));
  POSIX::_exit(0);
}
$SIG{PIPE} = 'IGNORE'; $SIG{CHLD} = sub { local ($!, $?); 1 while waitpid(-1, POSIX::WNOHANG()) > 0 };
put(\*STDOUT, frame(0, 'ready')) or exit 1;
my ($in, %runs) = ('');
while (defined $in || %runs) {
  my $rin = ''; vec($rin, 0, 1) = 1 if defined $in; vec($rin, $_, 1) = 1 for keys %runs;
  next if select(my $rout = $rin, undef, undef, undef) <= 0;
  if (defined $in && vec($rout, 0, 1)) {
    my $got = sysread(STDIN, $in, 262144, length $in);
    undef $in if !$got && !(!defined $got && $!{EINTR});
    while (defined $in && length($in) >= 8) {
      my ($id, $len) = unpack('N N', $in);
      last if length($in) < 8 + $len;
      my @f = unpack('(N/a*)*', substr($in, 8, $len)); substr($in, 0, 8 + $len, '');
      my ($r, $w, $pid);
      if (!pipe($r, $w) || !defined($pid = fork)) { put(\*STDOUT, frame($id, 'error', "cannot start the command: $!")) or exit 1; next }
      if (!$pid) {
        close $r; close $_->{fh} for values %runs;
        open(STDIN, '<', '/dev/null'); open(STDOUT, '>', '/dev/null');
        runner($w, @f);
      }
      close $w;
      $runs{fileno $r} = { fh => $r, id => $id, data => '' };
    }
  }
  for my $fd (keys %runs) {
    next unless vec($rout, $fd, 1);
    my $run = $runs{$fd};
    my $got = sysread($run->{fh}, $run->{data}, 262144, length $run->{data});
    next if $got || (!defined $got && $!{EINTR});
    delete $runs{$fd}; close $run->{fh};
    my $d = $run->{data};
    my $whole = length($d) >= 8 && length($d) == 8 + (unpack('N N', $d))[1];
    put(\*STDOUT, $whole ? pack('N', $run->{id}) . substr($d, 4) : frame($run->{id}, 'error', 'the command runner ended without an answer')) or exit 1;
  }
}
`;
