module.exports = { title: 'Practice Book', projectName: 'practice-book', baseUrl: '/', url: 'https://practice.example' };
