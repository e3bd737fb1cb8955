/** The thin bar at the top of the page while a navigation or a plugin load is under way. */
export function ProgressBar({ active }: { active: boolean }) {
  return active ? <div className="lp-progress" role="progressbar" aria-busy="true" data-testid="nav-progress" /> : null;
}
