/**
 * A node of Chromium's accessibility tree (DevTools' Accessibility.AXNode) in the answer's
 * words: its role (ARIA's, lower case; Chromium's own roles in kebab case, RootWebArea as
 * document), its states (the true properties), its actions and a field's text. Pure.
 */

export interface AXValue {
  type: string;
  value?: unknown;
}

export interface AXNode {
  nodeId: string;
  ignored: boolean;
  role?: AXValue;
  name?: AXValue;
  value?: AXValue;
  properties?: { name: string; value: AXValue }[];
  childIds?: string[];
  backendDOMNodeId?: number;
  frameId?: string;
}

const ROLE_NAMES: Record<string, string> = {
  RootWebArea: 'document',
  WebArea: 'document',
  StaticText: 'text',
  Iframe: 'iframe',
  IframePresentational: 'iframe',
  LabelText: 'label',
  LineBreak: 'line-break',
};

/** Roles whose node a click acts on. */
const PRESSABLE = new Set([
  'button',
  'link',
  'checkbox',
  'radio',
  'switch',
  'tab',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'option',
  'treeitem',
  'combobox',
  'togglebutton',
  'PopUpButton',
  'DisclosureTriangle',
  'ToggleButton',
  'summary',
]);

/** Fields: their text is answered, and set-text replaces it. */
const FIELDS = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton', 'TextField']);

/** Boolean properties answered as states when true, by the property's name. */
const FLAG_STATES = new Set([
  'focusable',
  'focused',
  'disabled',
  'readonly',
  'required',
  'multiline',
  'multiselectable',
  'selected',
  'modal',
  'busy',
  'hidden',
  'editable',
]);

/** Nodes never answered: a line's text boxes repeat their text node's name. */
export const SKIPPED_ROLES = new Set(['InlineTextBox']);

export function roleOf(raw: string): string {
  if (ROLE_NAMES[raw]) return ROLE_NAMES[raw];
  if (/^[a-z]/.test(raw)) return raw;
  return raw.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
}

function props(n: AXNode): Map<string, unknown> {
  return new Map((n.properties ?? []).map((p) => [p.name, p.value.value]));
}

export function statesOf(n: AXNode): string[] {
  const out: string[] = [];
  for (const [name, value] of props(n)) {
    if (name === 'editable' && value) out.push('editable');
    else if (name === 'invalid' && value && value !== 'false') out.push('invalid');
    else if (name === 'checked' || name === 'pressed') {
      if (value === 'true' || value === true) out.push(name);
      else if (value === 'mixed') out.push('mixed');
    } else if (name === 'expanded') out.push(value ? 'expanded' : 'collapsed');
    else if (FLAG_STATES.has(name) && value === true) out.push(name);
  }
  return out;
}

export interface Converted {
  role: string;
  name: string;
  states: string[];
  actions: string[];
  text?: string;
  /** Chromium's role, as the ref's fingerprint keeps it. */
  rawRole: string;
}

/** What the answer says of one node (an ignored node: nothing but its place). */
export function convert(n: AXNode): Converted {
  const rawRole = typeof n.role?.value === 'string' ? n.role.value : 'none';
  const name = typeof n.name?.value === 'string' ? n.name.value.trim() : '';
  if (n.ignored) return { role: roleOf(rawRole), name: '', states: [], actions: [], rawRole };
  const p = props(n);
  const states = statesOf(n);
  const disabled = p.get('disabled') === true;
  const field =
    FIELDS.has(rawRole) ||
    (p.has('editable') && p.get('settable') === true && rawRole !== 'generic');
  const actions: string[] = [];
  if (!disabled && (PRESSABLE.has(rawRole) || p.has('url'))) actions.push('press');
  if (!disabled && p.get('focusable') === true) actions.push('focus');
  if (!disabled && field && p.get('readonly') !== true) actions.push('set-text');
  const out: Converted = { role: roleOf(rawRole), name, states, actions, rawRole };
  if (field) out.text = typeof n.value?.value === 'string' ? n.value.value : '';
  return out;
}
