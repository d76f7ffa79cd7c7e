"""Operations shared by the command line and the dashboard: pure async functions over the API client, no Textual."""
