import { useEffect, useId, useMemo, useRef, useState } from 'preact/hooks';
import type { IngredientCode } from '../../lib/domain/labelling/codes.ts';
import { LANGUAGES, type Lang } from '../../lib/domain/labelling/languages.ts';
import type { VocabularyListEntry } from '../../lib/domain/labelling/vocabulary.ts';
import type { Ingredient } from '../../lib/domain/passport.ts';
import { api } from './api.ts';
import { Options, useLoad } from './components.tsx';
import { browserLanguage, fold, ingredientLabel, languageName, searchVocabulary } from './labelling.ts';

/**
 * The passport form's ingredient list (docs/api.md#passport-data): entries of the ingredient
 * vocabulary (GET /v1/vocabulary/ingredients), found by typing their name in the chosen language,
 * their code or E-number, and free text for anything else. The list keeps its order: the e-label
 * prints it as given (descending weight).
 *
 * The search box is a combobox as the WAI-ARIA Authoring Practices describe it (an editable
 * combobox with list autocomplete): ↓ and ↑ move through the suggestions, Enter takes the
 * highlighted one, Escape closes the list (and, when it is closed, clears the box). Only a
 * suggestion whose name is exactly what was typed is highlighted by itself, so Enter on an
 * unfinished word ("nitrog") adds nothing. Free text is added only through its own action, which
 * first says that it will not be translated and offers fields for its translations (the API takes
 * free text by language, docs/dashboard.md#the-passport-form).
 */

/** The attributes the form's Field gives its control (id, name, aria-invalid, aria-describedby): here the combobox. */
type ControlProps = Record<string, string>;

let vocabularyRequest: Promise<{ data: VocabularyListEntry[] }> | undefined;

/** The ingredient vocabulary, asked for once per page load (the form and the passport summary share it). */
export function useVocabulary() {
  return useLoad(() => {
    vocabularyRequest ??= api<{ data: VocabularyListEntry[] }>('GET', '/v1/vocabulary/ingredients').catch((error: unknown) => {
      vocabularyRequest = undefined; // asked again next time
      throw error;
    });
    return vocabularyRequest;
  }, []);
}

/** How a suggestion reads: its category, name and E-number in the search language. */
const suggestionLabel = (entry: VocabularyListEntry, lang: Lang): string =>
  `${entry.category ? `${entry.category.names[lang]}: ` : ''}${entry.names[lang]}${entry.eNumber ? ` (${entry.eNumber})` : ''}`;

export function IngredientsEditor(props: { value: Ingredient[]; onChange: (value: Ingredient[]) => void; control: ControlProps }) {
  const id = useId();
  const listId = `${id}-suggestions`;
  const input = useRef<HTMLInputElement>(null);
  const [lang, setLang] = useState<Lang>(() => browserLanguage());
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  /** The suggestion highlighted with ↓ or ↑, by code; undefined: only an exact match is highlighted. */
  const [chosenCode, setChosenCode] = useState<string>();
  /** Said after Enter found nothing to take. */
  const [notice, setNotice] = useState('');
  /** Free text waiting for its confirmation. */
  const [pending, setPending] = useState<string>();
  const vocabulary = useVocabulary();
  const entries = vocabulary.data?.data;
  const matches = useMemo(() => (entries ? searchVocabulary(entries, query, lang) : []), [entries, query, lang]);
  const expanded = open && query.trim() !== '' && matches.length > 0;
  // The suggestion named exactly as typed is highlighted by itself (Enter takes it), also when the vocabulary arrives after the typing.
  const exactCode = matches.find((entry) => fold(entry.names[lang]) === fold(query.trim()))?.code;
  const activeCode = chosenCode ?? exactCode;
  const active = expanded ? matches.findIndex((entry) => entry.code === activeCode) : -1;
  const optionId = (code: string) => `${id}-option-${code}`;
  const typed = query.trim();

  const reset = () => {
    setQuery('');
    setOpen(false);
    setChosenCode(undefined);
    setNotice('');
  };
  const add = (ingredient: Ingredient) => {
    props.onChange([...props.value, ingredient]);
    reset();
  };
  const take = (entry: VocabularyListEntry) => add({ code: entry.code as IngredientCode });
  const move = (index: number, by: number) => {
    const next = [...props.value];
    const [item] = next.splice(index, 1);
    if (item === undefined) return;
    next.splice(index + by, 0, item);
    props.onChange(next);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    const step = (by: 1 | -1) => {
      event.preventDefault();
      if (!matches.length) return;
      setOpen(true);
      if (event.altKey) return; // Alt+↓ opens the list without moving
      const from = expanded ? active : -1;
      const next = from === -1 ? (by === 1 ? 0 : matches.length - 1) : (from + by + matches.length) % matches.length;
      setChosenCode(matches[next]?.code);
    };
    if (event.key === 'ArrowDown') step(1);
    else if (event.key === 'ArrowUp') step(-1);
    else if (event.key === 'Enter') {
      event.preventDefault(); // never submits the passport form
      const entry = active >= 0 ? matches[active] : undefined;
      if (entry) take(entry);
      else if (typed) setNotice(`Nothing was added: “${typed}” is not a suggestion. Choose one with ↓ and Enter, or add it as free text.`);
    } else if (event.key === 'Escape') {
      if (expanded) {
        event.preventDefault();
        setOpen(false);
        setChosenCode(undefined);
      } else if (query) {
        event.preventDefault();
        reset();
      }
    }
  };

  return (
    <div class="ingredients" data-testid="ingredients-editor">
      {props.value.length ? (
        <ol class="ingredient-list" aria-label="Ingredients, in descending order of weight">
          {props.value.map((ingredient, index) => {
            const label = ingredientLabel(ingredient, lang, entries);
            const entry = typeof ingredient === 'object' && ingredient.code ? entries?.find((candidate) => candidate.code === ingredient.code) : undefined;
            return (
              <li key={`${index}-${label}`}>
                <span class="ingredient-name">{label}</span>
                {typeof ingredient === 'object' && ingredient.code ? <span class="badge">vocabulary</span> : null}
                {typeof ingredient === 'string' ? <span class="badge badge-warning">not translated</span> : null}
                {entry?.allergen ? <span class="badge badge-accent">allergen: {entry.allergen}</span> : null}
                <span class="ingredient-actions">
                  <button type="button" class="button button-ghost button-small" aria-label={`Move ${label} up`} disabled={index === 0} onClick={() => move(index, -1)}>
                    ↑
                  </button>
                  <button
                    type="button"
                    class="button button-ghost button-small"
                    aria-label={`Move ${label} down`}
                    disabled={index === props.value.length - 1}
                    onClick={() => move(index, 1)}
                  >
                    ↓
                  </button>
                  <button type="button" class="button button-ghost button-small" aria-label={`Remove ${label}`} onClick={() => props.onChange(props.value.filter((_, j) => j !== index))}>
                    Remove
                  </button>
                </span>
              </li>
            );
          })}
        </ol>
      ) : (
        <p class="muted">No ingredients yet.</p>
      )}
      <div class="ingredient-search">
        <div class="field combobox">
          <input
            {...props.control}
            ref={input}
            type="text"
            role="combobox"
            aria-autocomplete="list"
            aria-expanded={expanded ? 'true' : 'false'}
            aria-controls={listId}
            aria-activedescendant={active >= 0 && matches[active] ? optionId(matches[active].code) : undefined}
            autoComplete="off"
            spellcheck={false}
            value={query}
            placeholder="Type a name, a code or an E-number"
            onInput={(event) => {
              const text = (event.currentTarget as HTMLInputElement).value;
              setQuery(text);
              setOpen(true);
              setNotice('');
              setChosenCode(undefined);
            }}
            onKeyDown={onKeyDown}
            onBlur={() => setOpen(false)}
          />
          <ul class="combobox-listbox" role="listbox" id={listId} aria-label="Matching ingredients" hidden={!expanded}>
            {expanded
              ? matches.map((entry, index) => (
                  <li
                    key={entry.code}
                    id={optionId(entry.code)}
                    role="option"
                    aria-selected={index === active ? 'true' : 'false'}
                    class={index === active ? 'combobox-option is-active' : 'combobox-option'}
                    // Keeps the focus in the box: the click then takes the option.
                    onMouseDown={(event) => event.preventDefault()}
                    onClick={() => take(entry)}
                  >
                    {suggestionLabel(entry, lang)}
                    {entry.allergen ? <span class="combobox-note"> · allergen: {entry.allergen}</span> : null}
                  </li>
                ))
              : null}
          </ul>
        </div>
        <div class="field">
          <label for={`${id}-lang`}>Search in</label>
          <select
            id={`${id}-lang`}
            value={lang}
            onChange={(event) => {
              const next = (event.currentTarget as HTMLSelectElement).value as Lang;
              setLang(next);
              setChosenCode(undefined);
            }}
          >
            <Options values={LANGUAGES} labelOf={languageName} />
          </select>
        </div>
      </div>
      <p class="visually-hidden" role="status">
        {notice || (expanded ? `${matches.length} suggestion${matches.length === 1 ? '' : 's'}: use ↓ and ↑ to choose, Enter to add.` : '')}
      </p>
      {notice ? (
        <p class="hint" data-testid="ingredient-notice">
          {notice}
        </p>
      ) : null}
      {typed && pending === undefined ? (
        <div class="actions actions-start">
          <button type="button" class="button button-ghost button-small" onClick={() => setPending(typed)}>
            Add “{typed}” as free text…
          </button>
        </div>
      ) : null}
      {pending !== undefined ? (
        <FreeTextConfirm
          text={pending}
          lang={lang}
          onCancel={() => {
            setPending(undefined);
            input.current?.focus();
          }}
          onAdd={(ingredient) => {
            setPending(undefined);
            add(ingredient);
            input.current?.focus();
          }}
        />
      ) : null}
    </div>
  );
}

/**
 * Before free text joins the list: it will not be translated (every one of the 24 pages shows it
 * as written), unless its translations are given here: the API takes free text by language
 * (`{"text": {"en": …, "de": …}}`) and each page shows its own language, else English, else the
 * first given.
 */
function FreeTextConfirm(props: { text: string; lang: Lang; onCancel: () => void; onAdd: (ingredient: Ingredient) => void }) {
  const id = useId();
  const panel = useRef<HTMLDivElement>(null);
  // The warning is read out first: the panel takes the focus when it opens.
  useEffect(() => panel.current?.focus(), []);
  const [writtenIn, setWrittenIn] = useState<Lang>(props.lang);
  const [translations, setTranslations] = useState<Partial<Record<Lang, string>>>({});
  const given = Object.entries(translations).filter(([lang, value]) => lang !== writtenIn && value && value.trim() !== '') as [Lang, string][];
  const confirm = () =>
    props.onAdd(given.length ? { text: { [writtenIn]: props.text, ...Object.fromEntries(given.map(([lang, value]) => [lang, value.trim()])) } } : props.text);
  const enterAdds = (event: KeyboardEvent) => {
    if (event.key !== 'Enter') return;
    event.preventDefault(); // never submits the passport form
    confirm();
  };
  return (
    <div
      class="free-text-confirm notice notice-warning"
      role="group"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-said`}
      tabIndex={-1}
      ref={panel}
      data-testid="free-text-confirm"
    >
      <strong class="notice-title" id={`${id}-title`}>
        Add “{props.text}” as free text?
      </strong>
      <p id={`${id}-said`}>
        Free text is not translated: the e-label shows “{props.text}” exactly as written on all 24 language pages. Check the spelling, or choose a suggestion to have the ingredient
        named in every language. You can also give its translations below.
      </p>
      <details>
        <summary>Give translations ({given.length} given)</summary>
        <div class="field">
          <label for={`${id}-written`}>“{props.text}” is written in</label>
          <select id={`${id}-written`} value={writtenIn} onChange={(event) => setWrittenIn((event.currentTarget as HTMLSelectElement).value as Lang)}>
            <Options values={LANGUAGES} labelOf={languageName} />
          </select>
        </div>
        <div class="form-grid form-grid-compact">
          {LANGUAGES.filter((lang) => lang !== writtenIn).map((lang) => (
            <div class="field" key={lang}>
              <label for={`${id}-${lang}`}>{languageName(lang)}</label>
              <input
                id={`${id}-${lang}`}
                type="text"
                lang={lang}
                value={translations[lang] ?? ''}
                onInput={(event) => {
                  const value = (event.currentTarget as HTMLInputElement).value;
                  setTranslations((current) => ({ ...current, [lang]: value }));
                }}
                onKeyDown={enterAdds}
              />
            </div>
          ))}
        </div>
      </details>
      <div class="actions actions-start">
        <button type="button" class="button button-small" onClick={confirm}>
          {given.length ? `Add with ${given.length} translation${given.length === 1 ? '' : 's'}` : 'Add untranslated'}
        </button>
        <button type="button" class="button button-secondary button-small" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}
