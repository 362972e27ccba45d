// A creator picker bound to a plain DOM list (type-checked by `npm test`). `gc` is the facade an adapter's
// createGameCampaign returns; the picker holds the state, this file only draws it and forwards the player's input.
import type { CreatorPickerState, GameCampaign } from 'game-campaign-sdk';

export function mountCreatorPicker(gc: GameCampaign, root: HTMLElement, campaignId: string): () => void {
  const picker = gc.picker({ campaignId });
  const input = root.appendChild(document.createElement('input'));
  const list = root.appendChild(document.createElement('ul'));
  const status = root.appendChild(document.createElement('p'));
  const confirm = root.appendChild(document.createElement('button'));
  confirm.textContent = 'Boost';
  input.placeholder = 'Search creators (1-10 characters)';
  status.setAttribute('role', 'status'); // read out as it changes (boosting, the cooldown, an error)
  input.addEventListener('input', () => picker.search(input.value));
  confirm.addEventListener('click', () => void picker.confirm());

  const render = (state: CreatorPickerState) => {
    const shown = state.results ?? state.creators;
    // The list is drawn again on each change: the creator the player's focus was on gets it back.
    const focused = list.contains(document.activeElement) ? (document.activeElement as HTMLElement).dataset['key'] : undefined;
    let refocus: HTMLButtonElement | undefined;
    list.replaceChildren(...shown.map((creator) => {
      const item = document.createElement('li');
      // A button per creator: reached with Tab, pressed with Enter or Space, announced as pressed when selected.
      const choose = item.appendChild(document.createElement('button'));
      choose.type = 'button';
      choose.dataset['key'] = creator.creatorKey;
      choose.textContent = `${creator.creatorName} (${creator.creatorKey})${creator.creatorKey === state.boost?.creatorKey ? ' - boosted' : ''}`;
      choose.setAttribute('aria-pressed', String(creator.creatorKey === state.selected));
      choose.addEventListener('click', () => picker.select(creator.creatorKey));
      if (creator.creatorKey === focused) refocus = choose;
      return item;
    }));
    refocus?.focus();
    confirm.disabled = !state.canConfirm;
    const days = state.cooldownDays;
    status.textContent = state.loading || state.searching ? 'Loading…'
      : state.confirming ? 'Boosting…'
      : days ? `You can change your boost in ${days} ${days === 1 ? 'day' : 'days'}.`
      : state.error ? state.error.message : '';
  };
  picker.on('change', render);
  render(picker.state);
  return () => picker.dispose();
}
