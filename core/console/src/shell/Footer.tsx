/** The footer's filing-number link (FILING_NUMBER from the company configuration); nothing when unset. */
export function Footer({ filingNumber }: { filingNumber: string | null }) {
  if (!filingNumber) return null;
  return (
    <footer className="lp-footer" data-testid="footer">
      <a href="https://beian.miit.gov.cn/" target="_blank" rel="noreferrer" data-testid="filing-number">{filingNumber}</a>
    </footer>
  );
}
