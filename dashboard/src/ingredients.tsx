import { useId, useMemo, useState } from 'preact/hooks';
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
 */

/** The attributes the form's Field gives its control (id, name, aria-invalid, aria-describedby): here the search box. */
type ControlProps = Record<string, string>;

export function IngredientsEditor(props: { value: Ingredient[]; onChange: (value: Ingredient[]) => void; control: ControlProps }) {
  const id = useId();
  const [lang, setLang] = useState<Lang>(() => browserLanguage());
  const [query, setQuery] = useState('');
  const vocabulary = useLoad(() => api<{ data: VocabularyListEntry[] }>('GET', '/v1/vocabulary/ingredients'), []);
  const entries = vocabulary.data?.data;
  const matches = useMemo(() => (entries ? searchVocabulary(entries, query, lang) : []), [entries, query, lang]);
  const add = (ingredient: Ingredient) => {
    props.onChange([...props.value, ingredient]);
    setQuery('');
  };
  const move = (index: number, by: number) => {
    const next = [...props.value];
    const [item] = next.splice(index, 1);
    if (item === undefined) return;
    next.splice(index + by, 0, item);
    props.onChange(next);
  };

  return (
    <div class="ingredients" data-testid="ingredients-editor">
      {props.value.length ? (
        <ol class="ingredient-list" aria-label="Ingredients, in descending order of weight">
          {props.value.map((ingredient, index) => {
            const label = ingredientLabel(ingredient, lang, entries);
            return (
              <li key={`${index}-${label}`}>
                <span class="ingredient-name">{label}</span>
                {typeof ingredient === 'object' && ingredient.code ? <span class="badge">vocabulary</span> : null}
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
      <div class="form-grid">
        <div class="field">
          <input
            {...props.control}
            type="search"
            autoComplete="off"
            value={query}
            placeholder="Type a name, a code or an E-number, then pick it"
            onInput={(event) => setQuery((event.currentTarget as HTMLInputElement).value)}
            onKeyDown={(event) => {
              if (event.key !== 'Enter') return;
              event.preventDefault();
              const first = matches[0];
              if (first && fold(first.names[lang]) === fold(query.trim())) add({ code: first.code as IngredientCode });
              else if (query.trim()) add(query.trim());
            }}
          />
        </div>
        <div class="field">
          <label for={`${id}-lang`}>Search in</label>
          <select id={`${id}-lang`} value={lang} onChange={(event) => setLang((event.currentTarget as HTMLSelectElement).value as Lang)}>
            <Options values={LANGUAGES} labelOf={languageName} />
          </select>
        </div>
      </div>
      <div aria-live="polite">
        {query.trim() ? (
          <ul class="ingredient-matches" aria-label="Matching ingredients">
            {matches.map((entry) => (
              <li key={entry.code}>
                <button type="button" class="button button-secondary button-small" onClick={() => add({ code: entry.code as IngredientCode })}>
                  {entry.category ? `${entry.category.names[lang]}: ` : ''}
                  {entry.names[lang]}
                  {entry.eNumber ? ` (${entry.eNumber})` : ''}
                </button>
              </li>
            ))}
            <li>
              <button type="button" class="button button-ghost button-small" onClick={() => add(query.trim())}>
                Add “{query.trim()}” as free text
              </button>
            </li>
          </ul>
        ) : null}
      </div>
    </div>
  );
}
