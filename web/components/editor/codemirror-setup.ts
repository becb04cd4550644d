/**
 * CodeMirror 6, loaded with a dynamic import() by code-editor.tsx so it stays out of the first-load script.
 * The `codemirror` meta package is not used: the setup below is the usual basic setup minus search and
 * completion, with colours from the app's theme tokens so light and dark both read well.
 */
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { LanguageDescription, bracketMatching, foldGutter, foldKeymap, HighlightStyle, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { languages } from '@codemirror/language-data';
import { Compartment, EditorState } from '@codemirror/state';
import {
  EditorView, crosshairCursor, drawSelection, dropCursor, highlightActiveLine, highlightActiveLineGutter, highlightSpecialChars,
  keymap, lineNumbers, rectangularSelection,
} from '@codemirror/view';
import { tags } from '@lezer/highlight';

/** Above this size no language is loaded: the file still opens at once, as plain text. */
const HIGHLIGHT_LIMIT = 2 * 1024 * 1024;

const highlight = HighlightStyle.define([
  { tag: [tags.keyword, tags.modifier, tags.controlKeyword, tags.operatorKeyword], color: 'var(--cm-keyword)' },
  { tag: [tags.string, tags.special(tags.string), tags.regexp, tags.inserted], color: 'var(--cm-string)' },
  { tag: [tags.number, tags.bool, tags.null, tags.atom], color: 'var(--cm-number)' },
  { tag: [tags.comment, tags.lineComment, tags.blockComment, tags.meta], color: 'var(--cm-comment)', fontStyle: 'italic' },
  { tag: [tags.function(tags.variableName), tags.function(tags.propertyName), tags.labelName], color: 'var(--cm-function)' },
  { tag: [tags.typeName, tags.className, tags.namespace, tags.tagName], color: 'var(--cm-type)' },
  { tag: [tags.propertyName, tags.attributeName], color: 'var(--cm-property)' },
  { tag: [tags.heading], color: 'var(--cm-keyword)', fontWeight: '700' },
  { tag: [tags.link, tags.url], color: 'var(--cm-string)', textDecoration: 'underline' },
  { tag: [tags.emphasis], fontStyle: 'italic' },
  { tag: [tags.strong], fontWeight: '700' },
  { tag: [tags.deleted, tags.invalid], color: 'var(--color-danger)' },
]);

const theme = EditorView.theme({
  '&': { height: '100%', backgroundColor: 'var(--color-surface)', color: 'var(--color-text)', fontSize: '14px' },
  '.cm-scroller': { fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, 'Liberation Mono', monospace", lineHeight: '1.55' },
  '.cm-content': { caretColor: 'var(--color-primary)', padding: '10px 0' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--color-primary)' },
  '&.cm-focused': { outline: 'none' },
  '&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, ::selection': {
    backgroundColor: 'var(--cm-selection)',
  },
  '.cm-gutters': { backgroundColor: 'var(--color-surface-2)', color: 'var(--color-text-muted)', borderInlineEnd: '1px solid var(--color-border)' },
  '.cm-activeLine': { backgroundColor: 'var(--cm-active-line)' },
  '.cm-activeLineGutter': { backgroundColor: 'var(--cm-active-line)', color: 'var(--color-text)' },
  '.cm-matchingBracket, &.cm-focused .cm-matchingBracket': { backgroundColor: 'var(--cm-selection)', outline: '1px solid var(--color-border)' },
  '.cm-foldPlaceholder': { backgroundColor: 'var(--color-hover)', border: 'none', color: 'var(--color-text-muted)' },
});

export interface EditorOptions {
  doc: string;
  filename: string;
  readOnly: boolean;
  /** The document changed (edits only, not the initial load). */
  onChange(): void;
  /** Mod-S inside the editor. */
  onSave(): void;
  label: string;
}

export interface EditorHandle {
  text(): string;
  focus(): void;
  destroy(): void;
}

/** Creates the editor in `parent`; the language (chosen from the file name) loads in the background. */
export function createEditor(parent: HTMLElement, o: EditorOptions): EditorHandle {
  const language = new Compartment();
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: o.doc,
      extensions: [
        lineNumbers(),
        highlightActiveLineGutter(),
        highlightSpecialChars(),
        history(),
        foldGutter(),
        drawSelection(),
        dropCursor(),
        EditorState.allowMultipleSelections.of(true),
        indentOnInput(),
        syntaxHighlighting(highlight),
        bracketMatching(),
        rectangularSelection(),
        crosshairCursor(),
        highlightActiveLine(),
        keymap.of([{ key: 'Mod-s', preventDefault: true, run: () => (o.onSave(), true) }, ...defaultKeymap, ...historyKeymap, ...foldKeymap, indentWithTab]),
        EditorState.readOnly.of(o.readOnly),
        EditorView.editable.of(!o.readOnly),
        EditorView.lineWrapping,
        EditorView.contentAttributes.of({ 'aria-label': o.label }),
        EditorView.updateListener.of((u) => {
          if (u.docChanged) o.onChange();
        }),
        language.of([]),
        theme,
      ],
    }),
  });
  const desc = o.doc.length <= HIGHLIGHT_LIMIT ? LanguageDescription.matchFilename(languages, o.filename) : null;
  if (desc) {
    desc
      .load()
      .then((support) => {
        if (!view.dom.isConnected) return;
        view.dispatch({ effects: language.reconfigure(support) });
      })
      .catch((e: unknown) => console.warn('filedeck: no syntax highlighting for', o.filename, e));
  }
  return {
    text: () => view.state.doc.toString(),
    focus: () => view.focus(),
    destroy: () => view.destroy(),
  };
}
