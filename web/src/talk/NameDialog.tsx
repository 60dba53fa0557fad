// Choosing the name the table calls this person: a small form asked once when a seat is first
// opened (never over the board), and a dialog to change it later (from the seat label).
import { useState } from "preact/hooks";
import type { Translate } from "../i18n";
import { Dialog } from "../ui/Dialog";
import { NAME_LENGTH, cleanName, rememberName } from "./lines";
import "./talk.css";

interface NameFormProps {
  id: string;
  initial: string;
  rename: (name: string) => boolean;
  onDone: () => void;
  t: Translate;
  children?: preact.ComponentChildren;
}

function NameForm({ id, initial, rename, onDone, t, children }: NameFormProps) {
  const [value, setValue] = useState(initial);
  const name = cleanName(value);
  return (
    <form
      class="name-form"
      id={id}
      onSubmit={(event) => {
        event.preventDefault();
        if (name === null) return;
        rememberName(name);
        if (rename(name)) onDone();
      }}
    >
      <label class="name-label">
        <span>{t("nameAsk")}</span>
        <input
          type="text"
          class="name-input"
          name="name"
          value={value}
          maxLength={NAME_LENGTH * 2}
          autoComplete="nickname"
          placeholder={t("yourName")}
          aria-describedby={`${id}-hint`}
          onInput={(event) => setValue(event.currentTarget.value)}
        />
      </label>
      <small class="dim" id={`${id}-hint`}>
        {t("nameHint")}
      </small>
      <span class="name-buttons">
        <button type="submit" class="primary" disabled={name === null}>
          {t("nameSave")}
        </button>
        {children}
      </span>
    </form>
  );
}

/** Asked once, above the table, when this person's seat has no name yet. */
export function NamePrompt({ rename, onLater, t }: { rename: (name: string) => boolean; onLater: () => void; t: Translate }) {
  return (
    <div class="name-prompt" role="region" aria-label={t("yourName")}>
      <NameForm id="name-prompt" initial="" rename={rename} onDone={onLater} t={t}>
        <button type="button" class="ghost" onClick={onLater}>
          {t("nameLater")}
        </button>
      </NameForm>
    </div>
  );
}

export function NameDialog({ initial, rename, onClose, t }: { initial: string; rename: (name: string) => boolean; onClose: () => void; t: Translate }) {
  return (
    <Dialog id="name-dialog" title={t("nameChange")} onClose={onClose} closeLabel={t("close")}>
      <NameForm id="name-form" initial={initial} rename={rename} onDone={onClose} t={t} />
    </Dialog>
  );
}
