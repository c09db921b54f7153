#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""
The generic netlink family "fpga" driven by the kernel's own ynl CLI
(tools/net/ynl/cli.py of Debian's linux-source-6.12, put in the VM by
scripts/build/ynl-stage.sh) with our spec,
Documentation/netlink/specs/fpga.yaml: what the spec says is what the
kernel does.  The policies the kernel reports (nlctrl's getpolicy, read
with the kernel's nlctrl spec) are compared with the spec's requests.
Prints KTAP.

Exit status: 0 all passed or skipped, 1 a test failed.
"""

import json
import os
import subprocess
import sys

import yaml

YNL = '/usr/share/fpga-suite/ynl'
sys.path.insert(0, YNL)
from lib import YnlFamily  # noqa: E402  (the CLI's own library)

SPEC = YNL + '/specs/fpga.yaml'
NLCTRL = YNL + '/specs/nlctrl.yaml'
DFL_DEVICES = '/sys/bus/fpga_dfl/devices'
SIM = '/sys/bus/fpga_sim'
SIM_ID = 7000 + os.getpid() % 1000

# How nlctrl names the policy type of each spec type we use
POLICY_TYPE = {
    'u32': 'u32',
    'u64': 'u64',
    's32': 's32',
    'string': 'nul-string',
    'binary': 'binary',
}


def ynl(*args, spec=SPEC):
    """cli.py with @args; (exit status, its JSON output or None, stderr)"""
    res = subprocess.run([sys.executable, YNL + '/cli.py', '--spec', spec,
                          '--no-schema', '--output-json', *args],
                         capture_output=True, text=True, check=False)
    out = []
    for line in res.stdout.splitlines():
        try:
            out.append(json.loads(line))
        except ValueError:
            out.append(line)
    return res.returncode, out, res.stderr + res.stdout


def sysfs(path):
    with open(path, encoding='ascii') as f:
        return f.read().strip()


def sim_ports():
    card = f'{SIM}/devices/fpga_sim{SIM_ID}'
    return sorted(int(d.split('.')[1]) for d in os.listdir(card)
                  if d.startswith('fpga-port.'))


KSFT_SKIP = 4


class Ktap:
    def __init__(self):
        self.num = 0
        self.failed = 0
        print('TAP version 13')

    @staticmethod
    def plan(count, directive=''):
        print(f'1..{count}' + (f' # {directive}' if directive else ''))

    @staticmethod
    def diag(msg):
        for line in str(msg).splitlines():
            print(f'# {line}')

    def run(self, name, func):
        self.num += 1
        try:
            func()
        except Exception as e:  # pylint: disable=broad-except
            self.diag(f'{type(e).__name__}: {e}')
            self.failed += 1
            print(f'not ok {self.num} {name}')
            return
        print(f'ok {self.num} {name}')


def expect(cond, msg):
    if not cond:
        raise AssertionError(msg)


def hexstr(v):
    """A binary attribute as ynl prints it (hex, maybe with separators)"""
    return ''.join(c for c in str(v).lower() if c in '0123456789abcdef')


def t_dump():
    rc, out, err = ynl('--dump', 'dev-get')
    expect(rc == 0 and out and isinstance(out[0], list),
           f'dev-get dump failed: {err}')
    got = {d['dev-name']: d for d in out[0]}
    want = set(os.listdir(DFL_DEVICES))
    expect(set(got) == want, f'dump lists {sorted(got)}, sysfs {sorted(want)}')
    for name, d in got.items():
        card = sysfs(f'{DFL_DEVICES}/{name}/card_id')
        expect(str(d['card-id']) == card,
               f'{name}: card-id {d["card-id"]}, sysfs {card}')
        if name.startswith('fpga-port.') and 'afu-guid' in d:
            afu = sysfs(f'{DFL_DEVICES}/{name}/afu_id')
            expect(hexstr(d['afu-guid']) == afu.lower(),
                   f'{name}: afu-guid {d["afu-guid"]}, sysfs {afu}')
    port = f'fpga-port.{sim_ports()[0]}'
    expect(got[port].get('card-name') == f'fpga_sim{SIM_ID}',
           f'{port}: card-name {got[port].get("card-name")}')


def t_dump_card():
    port = f'fpga-port.{sim_ports()[0]}'
    card = int(sysfs(f'{DFL_DEVICES}/{port}/card_id'))
    rc, out, err = ynl('--dump', 'dev-get', '--json',
                       json.dumps({'card-id': card}))
    expect(rc == 0, f'dev-get dump of card {card} failed: {err}')
    names = sorted(d['dev-name'] for d in out[0])
    want = sorted([f'fpga-fme.{card}'] +
                  [f'fpga-port.{p}' for p in sim_ports()])
    expect(names == want, f'card {card}: {names}, not {want}')


def t_reset_events():
    """
    The listener is the CLI's library in this process: 6.12's cli.py
    cannot take a notification during its own --do (it parses the next
    message with the notification's op, None), and a second cli.py would
    race the reset to subscribe
    """
    port = sim_ports()[0]
    listener = YnlFamily(SPEC, '')
    listener.ntf_subscribe('events')
    rc, _, err = ynl('--do', 'port-reset', '--json',
                     json.dumps({'dev-id': port}))
    expect(rc == 0, f'port-reset of fpga-port.{port} failed: {err}')
    listener.check_ntf()
    events = [(m['name'], m['msg']) for m in listener.async_msg_queue
              if m['msg'].get('dev-id') == port]
    names = [n for n, _ in events]
    expect(names == ['event-reset-begin', 'event-reset-end'],
           f'events of the reset: {events}')
    expect(events[1][1].get('errno') == 0, f'reset ended with {events[1][1]}')


def t_reset_refused():
    fme = next(d for d in os.listdir(DFL_DEVICES) if d.startswith('fpga-fme.'))
    rc, _, err = ynl('--do', 'port-reset', '--json',
                     json.dumps({'dev-name': fme}))
    expect(rc != 0 and 'error: -22' in err,
           f'port-reset of {fme}: exit {rc}, "{err.strip()}"')
    rc, _, err = ynl('--do', 'port-reset', '--json',
                     json.dumps({'dev-id': 1 << 30}))
    expect(rc != 0 and 'error: -19' in err,
           f'port-reset of no port: exit {rc}, "{err.strip()}"')


def spec_ops():
    """{command number: op} of the spec's operations, numbered as C is"""
    with open(SPEC, encoding='utf-8') as f:
        spec = yaml.safe_load(f)
    ops, value = {}, 0
    for op in spec['operations']['list']:
        value = op.get('value', value)
        ops[value] = op
        value += 1
    attrs, value = {}, 0
    for attr in spec['attribute-sets'][0]['attributes']:
        value = attr.get('value', value)
        attrs[attr['name']] = (value, attr)
        value += 1
    consts = {d['name']: d['value'] for d in spec.get('definitions', [])
              if d['type'] == 'const'}
    for _, attr in attrs.values():
        limit = attr.get('checks', {}).get('max-len')
        if limit is not None:
            attr['checks']['max-len'] = consts.get(limit, limit)
    return spec, ops, attrs


def t_family():
    spec, ops, _ = spec_ops()
    rc, out, err = ynl('--do', 'getfamily', '--json',
                       json.dumps({'family-name': 'fpga'}), spec=NLCTRL)
    expect(rc == 0, f'getfamily: {err}')
    fam = out[0]
    expect(fam['version'] == spec.get('version', 1),
           f'version {fam["version"]}')
    groups = sorted(g['name'] for item in fam.get('mcast-groups', [])
                    for g in item.values())
    want = sorted(g['name'] for g in spec['mcast-groups']['list'])
    expect(groups == want, f'multicast groups {groups}, spec {want}')
    got = {o['id']: set(o['flags']) for item in fam['ops']
           for o in item.values()}
    want = {}
    for cmd, op in ops.items():
        modes = {f'cmd-cap-{m}' for m in ('do', 'dump') if m in op}
        if not modes:
            continue
        want[cmd] = modes | set(op.get('flags', [])) | {'cmd-cap-haspol'}
    expect(got == want, f'commands and flags {got}, spec {want}')


def t_policy():
    _, ops, attrs = spec_ops()
    by_value = {v: (name, a) for name, (v, a) in attrs.items()}
    rc, out, err = ynl('--dump', 'getpolicy', '--json',
                       json.dumps({'family-name': 'fpga'}), spec=NLCTRL)
    expect(rc == 0, f'getpolicy: {err}')
    # One message per command and per attribute of each policy
    policies, op_policy = {}, {}
    for msg in out[0]:
        if 'op-policy' in msg:
            pol = msg['op-policy']
            op_policy[pol['op-id']] = pol
        if 'policy' in msg:
            pol = msg['policy']
            policies.setdefault(pol['policy-id'], {})[pol['attr-id']] = pol
    for cmd, op in ops.items():
        for mode in ('do', 'dump'):
            if mode not in op:
                continue
            want = set(op[mode].get('request', {}).get('attributes', []))
            idx = op_policy.get(cmd, {}).get(mode)
            expect(idx is not None or not want,
                   f'{op["name"]} {mode}: no policy')
            pol = policies.get(idx, {}) if idx is not None else {}
            got = {by_value[a][0] for a in pol}
            expect(got == want,
                   f'{op["name"]} {mode} takes {sorted(got)}, spec {sorted(want)}')
            for a, p in pol.items():
                name, attr = by_value[a]
                expect(p['type'] == POLICY_TYPE[attr['type']],
                       f'{op["name"]} {name}: {p["type"]}, spec {attr["type"]}')
                limit = attr.get('checks', {}).get('max-len')
                if limit is not None:
                    expect(p.get('max-length') == limit,
                           f'{op["name"]} {name}: max-length {p.get("max-length")}')


def main():
    tests = [
        ('dump dev-get lists every FME and port of the bus', t_dump),
        ('dump dev-get with card-id lists that card only', t_dump_card),
        ('do port-reset resets the port, and events say so', t_reset_events),
        ('do port-reset of an FME or of no port is refused', t_reset_refused),
        ("the family's commands, flags and groups are the spec's", t_family),
        ("the kernel's policy of every request is the spec's", t_policy),
    ]
    ktap = Ktap()
    if not os.path.exists(YNL + '/cli.py'):
        ktap.plan(0, 'SKIP no ynl in this VM (scripts/build/ynl-stage.sh)')
        return KSFT_SKIP
    if subprocess.run(['modprobe', '-a', 'fpga_sim', 'fpga_port', 'fpga_fme'],
                      check=False).returncode:
        ktap.plan(0, 'modules failed to load')
        return 1
    ktap.plan(len(tests))
    try:
        with open(f'{SIM}/new_device', 'w', encoding='ascii') as f:
            f.write(f'{SIM_ID} 2')
        for name, func in tests:
            ktap.run(name, func)
    finally:
        try:
            with open(f'{SIM}/del_device', 'w', encoding='ascii') as f:
                f.write(f'{SIM_ID}')
        except OSError:
            pass
        subprocess.run(['modprobe', '-r', 'fpga_fme', 'fpga_port',
                        'fpga_sim', 'fpga_dfl'], check=False)
    print(f'# Totals: pass:{ktap.num - ktap.failed} fail:{ktap.failed} '
          'xfail:0 xpass:0 skip:0 error:0')
    return 1 if ktap.failed else 0


if __name__ == '__main__':
    sys.exit(main())
