/**
 * The AT-SPI helper run in a sandbox's box (python3 -c, argv only): JSON lines in, JSON lines
 * out on a copy of stdout. {id, op: "tree", app?, depth, includeHidden} answers the apps and
 * their nodes; {id, op: "action", app, path, action, text?, expect?} acts on one node and
 * answers it after. Refusals are {id, ok: false, code, error}. It exits (code 3) when the
 * desktop's bus is not there or was started again, so the next request starts a new one.
 * Paths are child indexes from the app ("0.3.1"), stable while the app's tree is.
 */
export const ATSPI_SCRIPT = String.raw`import json, os, sys

# Answers go to a copy of stdout; anything a library prints goes to stderr.
OUT = os.fdopen(os.dup(1), 'w')
os.dup2(2, 1)
BUS = os.environ.get('DBUS_SESSION_BUS_ADDRESS', '')
SOCKET = BUS[len('unix:path='):] if BUS.startswith('unix:path=') else ''


def bus_inode():
    try:
        return os.stat(SOCKET).st_ino
    except OSError:
        return None


BUS_INODE = bus_inode()
if BUS_INODE is None:
    OUT.write(json.dumps({'id': 0, 'ok': False, 'code': 'no_desktop', 'error': 'the desktop bus is not running'}) + '\n')
    OUT.flush()
    sys.exit(3)

import pyatspi  # noqa: E402
from gi.repository import Atspi  # noqa: E402

# A slow or hung application answers within this, or the call fails (ms; D-Bus default 25 s).
Atspi.set_timeout(2000, 10000)
PRESS = ('click', 'press', 'activate', 'jump')
MAX_NODES = 20000  # per request; the tool answers fewer (4,000), this bounds the work


class Refused(Exception):
    def __init__(self, code, message):
        Exception.__init__(self, message)
        self.code = code


def apps():
    desktop = pyatspi.Registry.getDesktop(0)
    seen = {}
    out = []
    for i in range(desktop.childCount):
        try:
            app = desktop.getChildAtIndex(i)
            if app is None:
                continue
            base = app.name or ('pid-%d' % app.get_process_id())
        except Exception:
            continue
        seen[base] = seen.get(base, 0) + 1
        out.append((base if seen[base] == 1 else '%s#%d' % (base, seen[base]), app))
    return out


def find_app(name):
    for n, app in apps():
        if n == name:
            return app
    raise Refused('app_gone', 'no application %s on the desktop' % json.dumps(name))


def interfaces(acc):
    try:
        return set(pyatspi.listInterfaces(acc))
    except Exception:
        return set()


def actions(acc, ifs):
    if 'Action' not in ifs:
        return []
    a = acc.queryAction()
    return [a.getName(i) for i in range(a.nActions)]


def bounds(acc, ifs):
    if 'Component' not in ifs:
        return None
    x, y, w, h = acc.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
    if x <= -(1 << 30) or y <= -(1 << 30) or w < 0 or h < 0:
        return None
    return [x, y, w, h]


def node(acc, path):
    ifs = interfaces(acc)
    states = [pyatspi.stateToString(s) for s in acc.getState().getStates()]
    out = {
        'path': path,
        'role': acc.getRoleName(),
        'name': acc.name or '',
        'states': states,
        'bounds': bounds(acc, ifs),
        'actions': actions(acc, ifs),
        'children': [],
    }
    if 'EditableText' in ifs and 'Text' in ifs:
        out['text'] = acc.queryText().getText(0, -1)
    return out


def shown(n):
    return 'showing' in n['states'] and 'visible' in n['states']


def walk(acc, path, depth, hidden, count):
    """acc's node and its subtree to depth levels (1: acc alone); None if left out."""
    if count[0] >= MAX_NODES:
        count[1] = True
        return None
    try:
        n = node(acc, path)
    except Exception:
        return None  # gone meanwhile
    if not hidden and not shown(n):
        return None
    count[0] += 1
    if depth > 1:
        try:
            k = acc.childCount
        except Exception:
            k = 0
        for i in range(k):
            try:
                c = acc.getChildAtIndex(i)
            except Exception:
                continue
            if c is None:
                continue
            sub = walk(c, '%s.%d' % (path, i) if path else str(i), depth - 1, hidden, count)
            if sub is not None:
                n['children'].append(sub)
    return n


def tree(req):
    out = []
    for name, app in apps():
        count = [0, False]
        if req.get('app') is not None and name != req['app']:
            continue
        try:
            app.clear_cache()
            k = app.childCount
        except Exception:
            continue
        nodes = []
        for i in range(k):
            try:
                c = app.getChildAtIndex(i)
            except Exception:
                continue
            if c is not None:
                sub = walk(c, str(i), req['depth'], req['includeHidden'], count)
                if sub is not None:
                    nodes.append(sub)
        out.append({'name': name, 'nodes': nodes, 'truncated': count[1]})
    return out


def resolve(app_name, path):
    acc = find_app(app_name)
    try:
        acc.clear_cache()
    except Exception:
        pass
    for part in path.split('.'):
        try:
            i = int(part)
            child = acc.getChildAtIndex(i) if 0 <= i < acc.childCount else None
        except Exception:
            child = None
        if child is None:
            raise Refused('node_gone', 'node %s of %s is gone' % (path, app_name))
        acc = child
    return acc


def act(req):
    path, action = req['path'], req['action']
    acc = resolve(req['app'], path)
    try:
        n = node(acc, path)
    except Exception:
        raise Refused('node_gone', 'node %s of %s is gone' % (path, req['app']))
    expect = req.get('expect')
    if expect and (n['role'] != expect.get('role', n['role']) or n['name'] != expect.get('name', n['name'])):
        raise Refused('node_changed', 'node %s of %s is now %s %s' % (path, req['app'], n['role'], json.dumps(n['name'])))
    ifs = interfaces(acc)
    if action == 'read':
        pass
    elif action == 'focus':
        if 'Component' not in ifs or not acc.queryComponent().grabFocus():
            raise Refused('action_not_offered', 'node %s (%s) cannot take focus' % (path, n['role']))
    elif action == 'set-text':
        if 'EditableText' not in ifs or not acc.queryEditableText().setTextContents(req.get('text') or ''):
            raise Refused('action_not_offered', 'node %s (%s) is not an editable field' % (path, n['role']))
    else:
        names = n['actions']
        if action == 'press':
            pick = [i for i, a in enumerate(names) if a in PRESS]
        else:
            pick = [i for i, a in enumerate(names) if a == action]
        if not pick:
            offered = ', '.join(names) or 'none'
            raise Refused('action_not_offered', 'node %s (%s) does not offer %s; it offers: %s' % (path, n['role'], action, offered))
        if not acc.queryAction().doAction(pick[0]):
            raise Refused('action_failed', 'node %s (%s) refused %s' % (path, n['role'], action))
    try:
        return node(acc, path)
    except Exception:
        raise Refused('node_gone', 'node %s of %s is gone after %s' % (path, req['app'], action))


def answer(req):
    try:
        result = tree(req) if req['op'] == 'tree' else act(req)
        return {'id': req['id'], 'ok': True, 'result': result}
    except Refused as e:
        return {'id': req['id'], 'ok': False, 'code': e.code, 'error': str(e)}
    except Exception as e:
        return {'id': req['id'], 'ok': False, 'code': 'failed', 'error': str(e)}


while True:
    line = sys.stdin.readline()
    if not line:
        break
    if not line.strip():
        continue
    req = json.loads(line)
    if bus_inode() != BUS_INODE:
        # The desktop was stopped or started again since: this process's connection is dead.
        OUT.write(json.dumps({'id': req['id'], 'ok': False, 'code': 'bus_changed', 'error': 'the desktop bus changed'}) + '\n')
        OUT.flush()
        sys.exit(3)
    OUT.write(json.dumps(answer(req)) + '\n')
    OUT.flush()
`;
