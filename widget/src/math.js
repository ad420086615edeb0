// TeX math → a MathML tree of plain objects (render.js turns it into elements with
// createElementNS; browsers render MathML natively, so no KaTeX bundle). A practical subset
// of what textbooks write: letters, numbers, operators, ^ and _, \frac, \sqrt, Greek letters,
// common symbols, \text, accents, \left/\right. Unknown commands show as their name.
// Node: {tag, attrs?, children} or {tag, text}.

const GREEK =
  'alpha:α beta:β gamma:γ delta:δ epsilon:ϵ varepsilon:ε zeta:ζ eta:η theta:θ vartheta:ϑ iota:ι kappa:κ lambda:λ mu:μ nu:ν xi:ξ pi:π rho:ρ sigma:σ tau:τ upsilon:υ phi:ϕ varphi:φ chi:χ psi:ψ omega:ω Gamma:Γ Delta:Δ Theta:Θ Lambda:Λ Xi:Ξ Pi:Π Sigma:Σ Phi:Φ Psi:Ψ Omega:Ω ell:ℓ infty:∞ partial:∂ nabla:∇ hbar:ℏ';
const OPS =
  'cdot:⋅ times:× div:÷ pm:± mp:∓ le:≤ leq:≤ ge:≥ geq:≥ ne:≠ neq:≠ approx:≈ equiv:≡ sim:∼ propto:∝ to:→ rightarrow:→ leftarrow:← Rightarrow:⇒ iff:⇔ mapsto:↦ in:∈ notin:∉ subset:⊂ subseteq:⊆ cup:∪ cap:∩ forall:∀ exists:∃ sum:∑ prod:∏ int:∫ oint:∮ ldots:… cdots:⋯ dots:… circ:∘ ast:∗ star:⋆ langle:⟨ rangle:⟩ lfloor:⌊ rfloor:⌋ lceil:⌈ rceil:⌉ vert:| mid:∣ | ∥ { { } } % %';
const table = (s) => Object.fromEntries(s.split(' ').map((p) => [p.slice(0, p.lastIndexOf(':')), p.slice(p.lastIndexOf(':') + 1)]));
const SYM = table(GREEK);
const OP = table(OPS.replace('| ∥ { { } } % %', '|:∥ {:{ }:} %:%'));
const FUNCS = /^(sin|cos|tan|cot|sec|csc|arcsin|arccos|arctan|sinh|cosh|tanh|log|ln|lg|exp|max|min|sup|inf|lim|det|dim|gcd|arg|deg|Pr)$/;
const ACCENTS = { hat: '^', bar: '¯', overline: '¯', vec: '→', dot: '˙', ddot: '¨', tilde: '~', widehat: '^' };
const SPACE = { ',': '0.17em', ':': '0.22em', ';': '0.28em', '!': '0', ' ': '0.25em', quad: '1em', qquad: '2em' };

const el = (tag, children, attrs) => ({ tag, children, ...(attrs && { attrs }) });
const leaf = (tag, text, attrs) => ({ tag, text, ...(attrs && { attrs }) });
const row = (list) => (list.length === 1 ? list[0] : el('mrow', list));

/** TeX source → tokens: `\\text{…}` whole (its spaces count), commands, numbers, characters. */
export const tokenize = (tex) =>
  String(tex).match(/\\(?:text|textrm|mathrm|operatorname|textbf|mathbf|mathit|mathsf|mathtt|textit|mbox)\s*\{[^{}]*\}|\\[a-zA-Z]+|\\.|\d+(?:\.\d+)?|\S/gu) || [];

/**
 * @param {string} tex
 * @param {boolean} display  `$$…$$` (a block) rather than `$…$`
 * @returns the <math> node
 */
export function texToMathML(tex, display = false) {
  const toks = tokenize(tex);
  let i = 0;
  const peek = () => toks[i];
  const next = () => toks[i++];

  // The text of \text{…}-like tokens, or of a brace group after \begin / \end.
  function rawGroup() {
    if (peek() !== '{') return next() || '';
    let out = '';
    for (let tk = next(); i < toks.length && (tk = next()) !== '}'; ) out += tk;
    return out;
  }

  function arg() {
    if (peek() === '{') {
      next();
      return row(expr('}'));
    }
    return atom() || leaf('mrow', '');
  }

  function atom() {
    const tk = next();
    if (tk == null) return null;
    if (tk === '{') return row(expr('}'));
    if (/^\d/.test(tk)) return leaf('mn', tk);
    if (tk[0] !== '\\') {
      if (/\p{L}/u.test(tk)) return leaf('mi', tk);
      return leaf('mo', tk === '-' ? '−' : tk === '*' ? '∗' : tk === "'" ? '′' : tk);
    }
    const name = tk.slice(1);
    if (SPACE[name] != null) return leaf('mspace', '', { width: SPACE[name] });
    if (name === 'frac' || name === 'dfrac' || name === 'tfrac') return el('mfrac', [arg(), arg()]);
    if (name === 'sqrt') {
      if (peek() === '[') {
        next();
        const n = row(expr(']'));
        return el('mroot', [arg(), n]);
      }
      return el('msqrt', [arg()]);
    }
    const text = name.includes('{') && name.slice(name.indexOf('{') + 1, -1);
    if (text !== false) {
      const cmd = name.match(/^[a-zA-Z]+/)[0];
      return /^(text|textrm|mbox|textit|textbf)$/.test(cmd) ? leaf('mtext', text) : leaf('mi', text, { mathvariant: cmd.includes('bf') ? 'bold' : 'normal' });
    }
    if (ACCENTS[name]) return el('mover', [arg(), leaf('mo', ACCENTS[name])], { accent: 'true' });
    if (name === 'left' || name === 'right' || /^[bB]ig+[lr]?$/.test(name)) {
      const d = next();
      return d === '.' || d == null ? leaf('mrow', '') : leaf('mo', OP[d.slice(1)] || d.replace(/^\\/, ''), { stretchy: 'true' });
    }
    if (name === 'begin' || name === 'end') return rawGroup(), leaf('mrow', '');
    if (SYM[name]) return leaf('mi', SYM[name]);
    if (OP[name]) return leaf('mo', OP[name]);
    if (FUNCS.test(name)) return leaf('mi', name, { mathvariant: 'normal' });
    if (name === '\\') return leaf('mspace', '', { width: '1em' });
    return leaf('mtext', tk.length === 2 ? name : tk); // \{ → {, unknown → \name
  }

  function expr(end) {
    const out = [];
    while (i < toks.length && peek() !== end) {
      let base = atom();
      if (!base) break;
      let sub = null;
      let sup = null;
      while (peek() === '^' || peek() === '_') {
        const op = next();
        const a = arg();
        if (op === '^') sup = a;
        else sub = a;
      }
      if (sub && sup) base = el('msubsup', [base, sub, sup]);
      else if (sub) base = el('msub', [base, sub]);
      else if (sup) base = el('msup', [base, sup]);
      out.push(base);
    }
    if (end) next(); // the closing brace
    return out;
  }

  const body = expr(null);
  return el('math', [row(body)], display ? { display: 'block' } : null);
}
