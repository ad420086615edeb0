"""A site's JavaScript and JSX read without running it: its config and sidebars' literals, and
the branch of a chapter's component each reader's language sees."""
