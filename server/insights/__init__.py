"""What students ask, for the author: what each question leaves behind (asked, pages), and the
report read from it (report, gaps), drawn as a page (page, charts) or printed (cli_insights)."""
