import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';

export function Page(props: { title: string; children: ComponentChildren }) {
  useEffect(() => {
    document.title = `${props.title} · Bazaar`;
  }, [props.title]);
  return (
    <>
      <h1 tabIndex={-1}>{props.title}</h1>
      {props.children}
    </>
  );
}

/** Copies a secret to the clipboard and says so; the text stays selectable for older browsers. */
export function CopyButton(props: { text: string; label: string }) {
  const [done, setDone] = useState('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.text);
      setDone('Copied.');
    } catch {
      setDone('Copying is blocked here: select the text and copy it.');
    }
  };
  return (
    <span class="copy">
      <button type="button" onClick={() => void copy()}>
        {props.label}
      </button>
      <span role="status">{done}</span>
    </span>
  );
}

export function Alert(props: {
  kind?: 'error' | 'info' | 'success' | 'warning';
  children: ComponentChildren;
}) {
  const kind = props.kind ?? 'error';
  return (
    <div class={`alert alert-${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {props.children}
    </div>
  );
}

export function Field(props: {
  id: string;
  label: string;
  hint?: string;
  error?: string | undefined;
  children: ComponentChildren;
}) {
  return (
    <div class={props.error === undefined ? 'field' : 'field field-invalid'}>
      <label for={props.id}>{props.label}</label>
      {props.hint === undefined ? null : (
        <p class="hint" id={`${props.id}-hint`}>
          {props.hint}
        </p>
      )}
      {props.children}
      {props.error === undefined ? null : (
        <p class="field-error" id={`${props.id}-error`}>
          {props.error}
        </p>
      )}
    </div>
  );
}

/** aria attributes tying an input to its hint and error text. */
export const describedBy = (id: string, hint: boolean, error: string | undefined) => ({
  'aria-invalid': error === undefined ? undefined : true,
  'aria-describedby':
    [hint ? `${id}-hint` : '', error === undefined ? '' : `${id}-error`]
      .filter(Boolean)
      .join(' ') || undefined,
});

export const date = (iso: string) =>
  new Date(iso).toLocaleDateString('en-GB', { year: 'numeric', month: 'short', day: 'numeric' });

const licenceKinds: Record<string, string> = {
  open_source: 'open source',
  source_available: 'source available',
  proprietary: 'proprietary',
  unknown: 'licence unknown',
};

/** A listing's licence in words: its SPDX id and kind, or the kind alone. */
export function licenceText(provenance: { license: string | null; license_kind: string }): string {
  const kind = licenceKinds[provenance.license_kind] ?? provenance.license_kind;
  return provenance.license === null ? kind : `${provenance.license} (${kind})`;
}
